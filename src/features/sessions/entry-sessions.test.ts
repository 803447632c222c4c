import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { signedInCookie } from '../reverse-proxy/test-support/upstream-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

const token = 'ssg_entry-sessions-token-0123456789abcdefghij';

/**
 * A session lasts no longer than the entry it was signed in with: disabling
 * or deleting an entry through the admin API signs its users out at their
 * next request, for forward-auth (remembered checks included) and for the
 * portal alike, and leaves other entries' and local sessions alone.
 */
describe("an entry disabled or deleted ends its users' sessions", () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle, jsonStyle }) => [{ ...getStyle, isDefault: true }, jsonStyle],
    });
    await gw.storage.apiTokens.create({
      id: 'entry-sessions',
      name: 'ci',
      tokenHash: sha256Base64url(token),
      createdAt: Date.now(),
    });
  });
  after(async () => gw.close());

  async function signedInWith(entryId: string, username: string): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const landed = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/`);
    assert.equal(landed.status, 200, landed.body);
    return browser;
  }

  const cookieOf = (browser: TestBrowser) =>
    [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`).join('; ');

  /** The answers of forward-auth, twice (the second may be a remembered one), and of the portal. */
  async function answers(cookie: string): Promise<number[]> {
    const auth = async () => (await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } })).status;
    const portal = await fetch(`${gw.url}/`, {
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    await portal.arrayBuffer();
    return [await auth(), await auth(), portal.status];
  }
  const signedIn = [204, 204, 200];
  // Sent to sign in again: 401 to the proxy, a redirect to the default entry for a page.
  const signInNeeded = [401, 401, 302];

  const admin = (method: string, path: string) =>
    fetch(`${gw.url}/_sso/api/entries/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
    });

  // The answer goes out before the audit event is written on a networked database.
  const lastChange = (action: string) =>
    waitForAuditEvent(
      gw.storage.audit,
      { kind: 'entry_change' },
      (event) => event.detail?.action === action,
    );

  test('disabled: its users need a sign-in at their next request; others go on', async () => {
    const alice = cookieOf(await signedInWith('example-get', 'alice'));
    const bob = cookieOf(await signedInWith('example-json', 'bob'));
    const local = await signedInCookie(gw.gateway, 'carol');
    for (const cookie of [alice, bob, local]) assert.deepEqual(await answers(cookie), signedIn);

    const disabled = await admin('POST', 'example-get/disable');
    assert.equal(disabled.status, 200, await disabled.text());
    assert.deepEqual(await answers(alice), signInNeeded);
    assert.deepEqual(await answers(bob), signedIn);
    assert.deepEqual(await answers(local), signedIn);
    assert.deepEqual((await lastChange('disable')).detail, {
      action: 'disable',
      changes: [
        { field: 'enabled', before: true, after: false },
        { field: 'isDefault', before: true },
      ],
      fields: ['enabled', 'isDefault'],
      sessionsEnded: 1,
    });

    // Enabled again, the entry signs in anew; the ended session stays ended.
    assert.equal((await admin('POST', 'example-get/enable')).status, 200);
    assert.deepEqual(await answers(alice), signInNeeded);
  });

  test('deleted: its users need a sign-in at their next request; others go on', async () => {
    const alice = cookieOf(await signedInWith('example-get', 'alice'));
    const bob = cookieOf(await signedInWith('example-json', 'bob'));
    for (const cookie of [alice, bob]) assert.deepEqual(await answers(cookie), signedIn);

    const deleted = await admin('DELETE', 'example-json');
    assert.equal(deleted.status, 204, await deleted.text());
    assert.deepEqual(await answers(bob), signInNeeded);
    assert.deepEqual(await answers(alice), signedIn);
    // Bob's sessions of both tests.
    assert.deepEqual((await lastChange('delete')).detail, {
      action: 'delete',
      fields: [],
      sessionsEnded: 2,
    });
  });
});
