const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Everything a page echoes goes through here: text and attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 24rem; margin: 3rem auto">
<h1>${escapeHtml(title)}</h1>
${content}
</body>
</html>
`;
}

interface LoginPageOptions {
  /** Where to continue after signing in: the authorization request, as a path. */
  readonly continueTo: string;
  readonly clientName?: string;
  readonly error?: string;
}

export function loginPage({ continueTo, clientName, error }: LoginPageOptions): string {
  const intro =
    clientName === undefined ? '' : `<p>Sign in to continue to ${escapeHtml(clientName)}.</p>`;
  const problem = error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>`;
  return page(
    'Example OAuth2 server',
    `${intro}${problem}
<form method="post" action="/login">
<input type="hidden" name="continue" value="${escapeHtml(continueTo)}">
<p><label for="username">Username</label><br>
<input id="username" name="username" autocomplete="username" required></p>
<p><label for="password">Password</label><br>
<input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}

/**
 * OAuth 2.0 Form Post Response Mode §2: the authorization response as a
 * form the browser posts to the redirect URI at once, as Apple's sign-in
 * does; the button posts it without script.
 */
export function formPostPage(action: string, fields: Record<string, string | undefined>): string {
  const inputs = Object.entries(fields)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  return page(
    'Returning to the application',
    `<form method="post" action="${escapeHtml(action)}">
${inputs}
<p><button type="submit">Continue</button></p>
</form>
<script>document.forms[0].submit();</script>`,
  );
}
