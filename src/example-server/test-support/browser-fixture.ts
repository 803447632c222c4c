import assert from 'node:assert/strict';

/** A minimal browser for tests: a cookie jar and redirects left to the caller. */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return response;
  }
}

export const callback = 'http://gateway.test/_sso/callback/example';

/** The value of the hidden `continue` field of the login form. */
export function continueField(html: string): string {
  const match = /name="continue" value="([^"]*)"/.exec(html);
  assert.ok(match?.[1] !== undefined, 'the page has a login form');
  return match[1].replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");
}

/**
 * Authorize → login form → POST /login → back to authorize → redirect with a
 * code; returns the query of the final redirect to the callback.
 */
export async function signIn(
  browser: TestBrowser,
  base: string,
  authorizePath: string,
  credentials: { username: string; password: string } = {
    username: 'alice',
    password: 'alice-password',
  },
): Promise<URLSearchParams> {
  const form = await browser.get(`${base}${authorizePath}`);
  assert.equal(form.status, 200);
  const html = await form.text();
  assert.match(html, /<label for="username">/);
  assert.match(html, /<label for="password">/);
  const login = await browser.postForm(`${base}/login`, {
    ...credentials,
    continue: continueField(html),
  });
  assert.equal(login.status, 303);
  const again = await browser.get(`${base}${login.headers.get('location') ?? ''}`);
  return redirectQuery(again);
}

/** Asserts a redirect to the test callback and returns its query. */
export function redirectQuery(response: Response): URLSearchParams {
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get('location') ?? '');
  assert.equal(`${location.origin}${location.pathname}`, callback);
  return location.searchParams;
}

export function authorizeQuery(parameters: Record<string, string>): string {
  return new URLSearchParams({ redirect_uri: callback, ...parameters }).toString();
}
