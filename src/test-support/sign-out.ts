import assert from 'node:assert/strict';
import { csrfTokenFor } from '../features/sessions/session-service.js';
import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserResponse } from './browser.js';
import { TestBrowser } from './browser.js';

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

/**
 * Clicks a button of the sign-out page at `url` in Chromium, as a user
 * does, and resolves the heading of the signed-out page it ends on (the
 * redirects of a sign-out everywhere go through the entry's server).
 */
export async function clickSignOut(
  page: Page,
  url: string,
  button: 'Sign out here' | 'Sign out everywhere',
): Promise<string> {
  await page.goto(url);
  await Promise.all([
    page.waitForURL(/\/_sso\/signed-out/, { timeout: 10_000 }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return page.getByRole('heading', { level: 1 }).innerText();
}

/** The session cookie Chromium holds for each URL's host, to be replayed later. */
export async function heldSessionCookies(
  context: BrowserContext,
  urls: readonly string[],
): Promise<{ url: string; value: string }[]> {
  const held = [];
  for (const url of urls) {
    const cookies = await context.cookies(url);
    const value = cookies.find(({ name }) => name === 'ssogate_session')?.value;
    assert.ok(value !== undefined, `a session cookie for ${url}`);
    held.push({ url, value });
  }
  return held;
}

/** `/_sso/me`'s status at each host for the cookie held there: 401 once its session is gone. */
export async function meWithCookies(
  held: readonly { url: string; value: string }[],
): Promise<string[]> {
  const replay = new TestBrowser({ connectTo: '127.0.0.1' });
  try {
    const answers = [];
    for (const { url, value } of held) {
      const origin = new URL(url).origin;
      replay.setCookie(origin, 'ssogate_session', value);
      const answer = await replay.exchange('GET', `${origin}/_sso/me`, undefined, '*/*');
      await answer.arrayBuffer();
      answers.push(`${origin} ${answer.status}`);
    }
    return answers;
  } finally {
    await replay.close();
  }
}
