import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * Which user a user-info answer names, end to end: the example server is
 * made to answer exactly the JSON under test, and the gateway's session says
 * who signed in.
 */
describe('user identity from the user-info answer', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        {
          ...getStyle,
          userInfoParse: "userId = JSON_GET($response,'id')\nuserName = JSON_GET($response,'name')",
        },
      ],
    });
  });
  after(async () => gw.close());

  /** Signs a new browser in with the user-info answer `body`; returns the page and /_sso/me. */
  async function signInWith(body: string) {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.failNext('userinfo', { body });
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/x`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    return {
      page,
      me: me.status === 200 ? (JSON.parse(me.body) as Record<string, unknown>) : null,
    };
  }

  /**
   * The page names the step (userinfo_parse_failed) and its reference; the
   * log line with that reference names the precise mapping error.
   */
  function refusedWith(page: { status: number; body: string }, code: string): void {
    assert.equal(page.status, 502, page.body);
    assert.match(page.body, /Error code: <code>userinfo_parse_failed<\/code>/);
    const reference = /Reference: <code>([A-Z0-9]+)<\/code>/.exec(page.body)?.[1] ?? 'none';
    const line = gw.logLines.find((text) => text.includes(reference));
    assert.ok(line?.includes(`${code}:`), line);
  }

  test('two 64-bit ids that differ in the last digits are two users', async () => {
    const first = await signInWith('{"id":12345678901234567890,"name":"alice"}');
    const second = await signInWith('{"id":12345678901234567891,"name":"mallory"}');
    assert.equal(first.me?.userId, '12345678901234567890');
    assert.equal(second.me?.userId, '12345678901234567891');
    const alice = await gw.storage.users.findByUserId('12345678901234567890');
    assert.equal(alice?.userName, 'alice');
  });

  test('an id that is a fraction, -0 or an exponent form ends on a coded error page', async () => {
    for (const id of ['1e21', '1.5', '-0']) {
      const { page, me } = await signInWith(`{"id":${id},"name":"x"}`);
      refusedWith(page, 'user_attribute_number_inexact');
      assert.equal(me, null);
    }
    assert.equal(await gw.storage.users.findByUserId('0'), undefined);
  });

  test('an id with a control character ends on a coded error page', async () => {
    const { page, me } = await signInWith('{"id":"adm\\r\\nin","name":"x"}');
    refusedWith(page, 'user_attribute_control_character');
    assert.equal(me, null);
  });

  test('an id with spaces around it ends on a coded error page, not as another user', async () => {
    await signInWith('{"id":"alice","name":"alice"}');
    for (const id of [' alice', 'alice ', '  alice  ']) {
      const { page, me } = await signInWith(JSON.stringify({ id, name: 'mallory' }));
      refusedWith(page, 'user_attribute_whitespace');
      assert.equal(me, null);
      assert.equal(await gw.storage.users.findByUserId(id), undefined);
    }
    assert.equal((await gw.storage.users.findByUserId('alice'))?.userName, 'alice');
  });
});

/**
 * provisioning.userIdScope "entry": the same userId at two entries is two
 * users, each known as `<entry id>:<userId>`; without it, the second entry's
 * sign-in is refused as before.
 */
describe('user ids in a namespace per entry', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        { ...getStyle, id: 'corp-a', name: 'Corp A', provisioning: { userIdScope: 'entry' } },
        { ...getStyle, id: 'corp-b', name: 'Corp B', provisioning: { userIdScope: 'entry' } },
        { ...getStyle, id: 'plain-a', name: 'Plain A' },
        { ...getStyle, id: 'plain-b', name: 'Plain B' },
      ],
    });
  });
  after(async () => gw.close());

  async function signIn(entryId: string) {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'alice');
    const page = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/x`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    return {
      page,
      browser,
      me: me.status === 200 ? (JSON.parse(me.body) as Record<string, unknown>) : null,
    };
  }

  test('the same userId from two entries with the option: two users, both sign in again', async () => {
    for (let round = 0; round < 2; round += 1) {
      const a = await signIn('corp-a');
      const b = await signIn('corp-b');
      assert.deepEqual([a.me?.userId, a.me?.entryId], ['corp-a:alice', 'corp-a']);
      assert.deepEqual([b.me?.userId, b.me?.entryId], ['corp-b:alice', 'corp-b']);
      const auth = await b.browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
      assert.equal(auth.headers.get('x-auth-request-user'), 'corp-b:alice');
    }
    const rowA = await gw.storage.users.findByUserId('corp-a:alice');
    const rowB = await gw.storage.users.findByUserId('corp-b:alice');
    assert.equal(rowA?.sourceEntryId, 'corp-a');
    assert.equal(rowB?.sourceEntryId, 'corp-b');
    assert.notEqual(rowA.id, rowB.id);
    assert.equal(await gw.storage.users.findByUserId('alice'), undefined);
  });

  test('without the option the second entry is refused with account_conflict', async () => {
    const first = await signIn('plain-a');
    assert.equal(first.me?.userId, 'alice');
    const second = await signIn('plain-b');
    assert.equal(second.page.status, 409, second.page.body);
    assert.match(second.page.body, /account_conflict/);
    assert.equal(second.me, null);
  });
});

/**
 * An entry with userIdScope "entry" owns the ids `<entry id>:...`; a global
 * entry's server cannot take one first and leave the real user refused.
 */
describe('the namespace of an entry is reserved', () => {
  let gw: TestGateway;
  before(async () => {
    const userInfoParse = "userId = JSON_GET($response,'id')";
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        {
          ...getStyle,
          id: 'oidc4',
          name: 'Scoped',
          userInfoParse,
          provisioning: { userIdScope: 'entry' },
        },
        { ...getStyle, id: 'plain', name: 'Global', userInfoParse },
      ],
    });
  });
  after(async () => gw.close());

  /** Signs a new browser in at `entryId`, its server answering the user id `id`. */
  async function signIn(entryId: string, id: string) {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.failNext('userinfo', { body: JSON.stringify({ id }) });
    const page = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/x`);
    const auth = await browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
    return { page, user: auth.status === 204 ? auth.headers.get('x-auth-request-user') : null };
  }

  test('a global entry cannot take a user id of the form <entry id>:…, before or after its user', async () => {
    const squatter = await signIn('plain', 'oidc4:zed');
    assert.equal(squatter.page.status, 409, squatter.page.body);
    assert.match(squatter.page.body, /user_id_reserved/);
    assert.equal(squatter.user, null);
    assert.equal(await gw.storage.users.findByUserId('oidc4:zed'), undefined);

    const zed = await signIn('oidc4', 'zed');
    assert.equal(zed.page.status, 200, zed.page.body);
    assert.equal(zed.user, 'oidc4:zed');
    assert.equal((await gw.storage.users.findByUserId('oidc4:zed'))?.sourceEntryId, 'oidc4');

    const again = await signIn('plain', 'oidc4:zed');
    assert.equal(again.page.status, 409, again.page.body);
    assert.match(again.page.body, /user_id_reserved/);
    // Any entry's id is reserved, whatever its scope today: a scope can change.
    assert.match((await signIn('plain', 'plain:zed')).page.body, /user_id_reserved/);
    // A colon after anything that is not an entry id is an ordinary id.
    assert.equal((await signIn('plain', 'urn:corp:zed')).user, 'urn:corp:zed');
  });
});
