import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import {
  followTo,
  postToTokenEndpoint,
  redirectUri,
  registerClient,
  startProviderGateway,
} from '../features/openid-provider/test-support/provider-fixture.js';
import { runCommand } from './test-support/run-command.js';

/**
 * `ssogate oidc rotate-key` beside a running provider that shares its
 * storage: the next id_token is signed with the new key, and the old key
 * stays published until the tokens it signed have expired (an hour, and five
 * minutes for clocks: features/openid-provider/lifetimes.ts).
 */
describe('ssogate oidc rotate-key', () => {
  let gw: TestGateway;
  let now = Date.now();
  before(async () => {
    gw = await startProviderGateway({ clock: () => now });
    await registerClient(gw, 'app');
  });
  after(() => gw.close());

  const published = async () => {
    const response = await fetch(`${gw.url}/_sso/oidc/jwks`);
    return (await response.json()) as JSONWebKeySet;
  };
  const kids = async () => (await published()).keys.map((key) => key.kid);

  /** An id_token for alice, through the authorization endpoint and the token endpoint. */
  async function idToken(): Promise<string> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const authorize = new URL(`${gw.url}/_sso/oidc/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: redirectUri,
      scope: 'openid',
    }).toString();
    const { arrived } = await followTo(browser, authorize.href);
    const code = arrived?.searchParams.get('code');
    assert.ok(typeof code === 'string', 'a code comes back');
    const response = await postToTokenEndpoint(gw, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { id_token: string }).id_token;
  }

  test('the next id_token is signed with the new key; the old one stays published until its tokens expire', async () => {
    const before = await idToken();
    const oldKid = decodeProtectedHeader(before).kid;
    assert.deepEqual(await kids(), [oldKid]);

    const rotated = await runCommand(['oidc', 'rotate-key'], {
      storage: gw.storage,
      clock: () => now,
    });
    assert.equal(rotated.code, 0, rotated.err);
    const newKid = rotated.out.trim();
    assert.notEqual(newKid, oldKid);
    const until = new Date(now + 65 * 60_000).toISOString();
    assert.match(
      rotated.err,
      new RegExp(`new key ${newKid}; ${oldKid} stays published until ${until}`),
    );
    const [event] = await gw.storage.audit.list({ kind: 'key_change', limit: 1 });
    assert.equal(event?.actor, 'cli');
    assert.deepEqual(event.detail, {
      action: 'rotate',
      kid: newKid,
      retired: [oldKid],
      publishedUntil: until,
    });

    // Both published, the signing key first; a token of the old key still verifies.
    assert.deepEqual(await kids(), [newKid, oldKid]);
    await compactVerify(before, createLocalJWKSet(await published()));
    const after = await idToken();
    assert.equal(decodeProtectedHeader(after).kid, newKid);

    // A second before the old key's last token has expired, and a second after.
    now += 65 * 60_000 - 1000;
    assert.deepEqual(await kids(), [newKid, oldKid]);
    now += 2000;
    assert.deepEqual(await kids(), [newKid]);
    await assert.rejects(compactVerify(before, createLocalJWKSet(await published())));
  });

  test('with no key yet, it makes the first', async () => {
    await withTestStorage(async (storage) => {
      const made = await runCommand(['oidc', 'rotate-key'], { storage, clock: Date.now });
      assert.equal(made.code, 0, made.err);
      assert.match(made.err, /signs with the new key \S+ \(it had none\)/);
      const keys = await storage.oidcSigningKeys.published(Date.now());
      assert.deepEqual(
        keys.map((key) => key.kid),
        [made.out.trim()],
      );
    });
  });
});
