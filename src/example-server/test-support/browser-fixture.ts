import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';

/** The example server's tests walk its redirects themselves, with TestBrowser.exchange. */
export { TestBrowser } from '../../test-support/browser.js';

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
  const form = await browser.exchange('GET', `${base}${authorizePath}`);
  assert.equal(form.status, 200);
  const html = await form.text();
  assert.match(html, /<label for="username">/);
  assert.match(html, /<label for="password">/);
  const login = await browser.exchange('POST', `${base}/login`, {
    ...credentials,
    continue: continueField(html),
  });
  assert.equal(login.status, 303);
  const again = await browser.exchange('GET', `${base}${login.headers.get('location') ?? ''}`);
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
