import assert from 'node:assert/strict';
import { csrfTokenFor } from '../features/sessions/session-service.js';
import type { BrowserResponse, TestBrowser } from './browser.js';

/** The sign-out form of a gateway page: where it posts and its form token. */
export function signOutForm(page: string): { action: string; csrf: string } {
  const form = /<form method="post" action="(\/_sso\/logout)">([\s\S]*?)<\/form>/.exec(page);
  const csrf = /<input type="hidden" name="csrf" value="([^"]*)"/.exec(form?.[2] ?? '')?.[1];
  if (form?.[1] === undefined || csrf === undefined)
    throw new Error('no sign-out form on the page');
  return { action: form[1], csrf };
}

/** Signs out as a user does: the confirm page of GET /_sso/logout, then its form. */
export async function signOut(browser: TestBrowser, gatewayUrl: string): Promise<BrowserResponse> {
  const confirm = await browser.open(`${gatewayUrl}/_sso/logout`);
  const { action, csrf } = signOutForm(confirm.body);
  return browser.submit(`${gatewayUrl}${action}`, { csrf });
}

/** Signs a session's cookie out with the session's own form token, as the sign-out page's form does. */
export async function signOutWithCookie(gatewayUrl: string, cookie: string): Promise<void> {
  const out = await fetch(`${gatewayUrl}/_sso/logout`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: csrfTokenFor(cookie.split('=')[1] ?? '') }).toString(),
    redirect: 'manual',
  });
  assert.equal(out.status, 303, await out.text());
}
