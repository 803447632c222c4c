import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import type { JSONWebKeySet } from 'jose';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import {
  idTokenOfAlice,
  registerClient,
  startProviderGateway,
} from '../features/openid-provider/test-support/provider-fixture.js';
import { runCommand } from './test-support/run-command.js';
import { nextKeyLeadMs, signingKeyRotationMs } from '../features/openid-provider/lifetimes.js';

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

  const idToken = () => idTokenOfAlice(gw);

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

  test('rotate-key promotes the next key published ahead; --revoke removes the old keys at once', async () => {
    const before = await idToken();
    const oldKid = decodeProtectedHeader(before).kid;
    // Into the schedule's lead: the next key is published, not yet signing.
    now += signingKeyRotationMs - nextKeyLeadMs;
    const [nextKid] = await kids();
    assert.notEqual(nextKid, oldKid);
    const rotated = await runCommand(['oidc', 'rotate-key'], {
      storage: gw.storage,
      clock: () => now,
    });
    assert.equal(rotated.code, 0, rotated.err);
    assert.equal(rotated.out.trim(), nextKid);
    assert.match(
      rotated.err,
      new RegExp(`next key ${nextKid}, published already; ${oldKid} stays published`),
    );
    assert.equal(decodeProtectedHeader(await idToken()).kid, nextKid);
    assert.deepEqual(await kids(), [nextKid, oldKid]);

    const revoked = await runCommand(['oidc', 'rotate-key', '--revoke'], {
      storage: gw.storage,
      clock: () => now,
    });
    assert.equal(revoked.code, 0, revoked.err);
    const newKid = revoked.out.trim();
    assert.ok(![oldKid, nextKid].includes(newKid), 'a new key, not one that may have been seen');
    assert.match(revoked.err, /removed from the key set at once/);
    assert.deepEqual(await kids(), [newKid]);
    const [event] = await gw.storage.audit.list({ kind: 'key_change', limit: 1 });
    assert.equal(event?.detail?.action, 'revoke');
    const refused = await runCommand(['token', 'list', '--revoke'], {
      storage: gw.storage,
      clock: () => now,
    });
    assert.notEqual(refused.code, 0);
  });

  test('with no key yet, it makes the first', async () => {
    await withTestStorage(async (storage) => {
      const made = await runCommand(['oidc', 'rotate-key'], { storage, clock: Date.now });
      assert.equal(made.code, 0, made.err);
      assert.match(made.err, /signs with the new key \S+ \(it had none\)/);
      const keys = await storage.providerSigningKeys.published(Date.now());
      assert.deepEqual(
        keys.map((key) => key.kid),
        [made.out.trim()],
      );
    });
  });
});
