import assert from 'node:assert/strict';
import type { BrowserResponse, TestBrowser } from '../../../test-support/browser.js';
import type { RunningSimpleSamlPhp } from './simplesamlphp.js';
import { formOf } from './simplesamlphp.js';

type AnswerForm = { action: string; fields: Record<string, string> };

/**
 * A sign-in from the gateway to SimpleSAMLphp's login form, filled: the
 * form that would post the Response back to the entry's callback. The
 * AuthnRequest on the way is checked to go by HTTP-Redirect to the
 * identity provider's SSO service, with a RelayState.
 */
export async function responseFromIdp(
  browser: TestBrowser,
  gatewayUrl: string,
  idp: RunningSimpleSamlPhp,
  entryId: string,
  username = 'alice',
): Promise<AnswerForm> {
  const acsUrl = `${gatewayUrl}/_sso/callback/${entryId}`;
  const login = await browser.open(`${gatewayUrl}/_sso/login/${entryId}?return_to=/reports`);
  assert.equal(login.status, 200, `${login.body}\n${await idp.log()}`);
  const [toIdp] = login.hops;
  const request = new URL(toIdp?.location ?? '');
  assert.equal(`${request.origin}${request.pathname}`, idp.ssoUrl);
  assert.ok(request.searchParams.has('SAMLRequest'));
  assert.ok(request.searchParams.has('RelayState'));
  const answer = await answerAtIdp(browser, idp, login, username);
  assert.equal(answer.action, acsUrl, await idp.log());
  return answer;
}

/**
 * SimpleSAMLphp's answer on the page a sign-in opened there (`login`): its
 * login form filled as `username`, then the form that posts the Response.
 */
export async function answerAtIdp(
  browser: TestBrowser,
  idp: RunningSimpleSamlPhp,
  login: BrowserResponse,
  username: string,
): Promise<AnswerForm> {
  assert.equal(login.status, 200, `${login.body}\n${await idp.log()}`);
  const form = formOf(login.body);
  // Signed in at the identity provider already: its answer comes at once (SSO).
  if (form.fields.SAMLResponse !== undefined) return form;
  const posted = await browser.submit(new URL(form.action, login.url).href, {
    ...form.fields,
    username,
    password: `${username}-password`,
  });
  assert.equal(posted.status, 200, `${posted.body}\n${await idp.log()}`);
  const answer = formOf(posted.body);
  assert.ok(answer.fields.SAMLResponse !== undefined, posted.body);
  return answer;
}

/** A Response the gateway refused: its coded error page, and no session begun. */
export function failsWith(response: BrowserResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.body);
  assert.match(response.body, new RegExp(`<code>${code}</code>`));
  assert.ok(
    !response.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')),
  );
}
