import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testBackendName } from '../../test-support/test-backend.js';
import { openStorage } from '../../app/open-storage.js';
import { withApi } from '../admin-api/test-support/api-fixtures.js';
import { everyStoredText } from '../../test-support/database-text.js';
import { nextKeyLeadMs, retiredKeyPublishedMs, signingKeyRotationMs } from './lifetimes.js';
import { providerPaths } from './endpoints.js';
import { rotateSigningKey, signJwt } from './signing-keys.js';

/**
 * withApi, on SQLite over a file rather than a memory database, so that a
 * second connection (a second gateway, a raw reader) sees the same data.
 */
async function withApiOnFile(run: Parameters<typeof withApi>[0]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-keys-'));
  const onFile = testBackendName().startsWith('sqlite')
    ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}` }
    : {};
  try {
    await withApi(run, {}, onFile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('OpenID Provider: signing keys', () => {
  test('one RS256 key made on first use, published with Cache-Control, its private half sealed', async () => {
    await withApiOnFile(async (api) => {
      const response = await api.inject({ method: 'GET', url: providerPaths.jwks });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['cache-control'], 'public, max-age=300');
      assert.match(String(response.headers['content-type']), /^application\/jwk-set\+json/);
      const { keys } = response.json<JSONWebKeySet>();
      assert.equal(keys.length, 1);
      const [key] = keys;
      assert.deepEqual([key?.kty, key?.alg, key?.use], ['RSA', 'RS256', 'sig']);
      // The public half only.
      for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        assert.equal(Object.hasOwn(key ?? {}, part), false);

      const [stored] = await api.storage.providerSigningKeys.published(api.gateway.clock());
      const privateExponent = stored?.privateJwk.d;
      assert.ok(typeof privateExponent === 'string');
      assert.ok(privateExponent.length > 300);
      const texts = await everyStoredText(api.gateway.config.database);
      assert.ok(texts.some((text) => text.table === 'oidc_signing_keys'));
      assert.ok(
        !texts.some((text) => text.value.includes(privateExponent)),
        'the private key is stored sealed',
      );

      const token = await signJwt(api.storage, api.gateway.clock(), { sub: 'alice' });
      assert.equal(decodeProtectedHeader(token).kid, key?.kid);
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), {
        algorithms: ['RS256'],
      });
      assert.equal(payload.sub, 'alice');
    });
  });

  test('rotation keeps the old public key published until its tokens have expired', async () => {
    await withApi(async (api) => {
      const jwks = async () =>
        (await api.inject({ method: 'GET', url: providerPaths.jwks })).json<JSONWebKeySet>();
      const oldToken = await signJwt(api.storage, api.gateway.clock(), { sub: 'alice' });
      const oldKid = decodeProtectedHeader(oldToken).kid;

      const rotated = await rotateSigningKey(api.storage, api.gateway.clock());
      const newToken = await signJwt(api.storage, api.gateway.clock(), { sub: 'bob' });
      assert.equal(decodeProtectedHeader(newToken).kid, rotated.kid);
      assert.notEqual(rotated.kid, oldKid);
      const both = await jwks();
      assert.deepEqual(
        both.keys.map((key) => key.kid),
        [rotated.kid, oldKid],
      );
      await jwtVerify(oldToken, createLocalJWKSet(both));

      api.tick(retiredKeyPublishedMs);
      const after = await jwks();
      assert.deepEqual(
        after.keys.map((key) => key.kid),
        [rotated.kid],
      );
      await assert.rejects(jwtVerify(oldToken, createLocalJWKSet(after)), {
        code: 'ERR_JWKS_NO_MATCHING_KEY',
      });
      // The sweep deletes it; the signing key stays.
      await api.storage.sweepExpired(api.gateway.clock(), 0);
      const left = await api.storage.providerSigningKeys.published(0);
      assert.deepEqual(
        left.map((key) => key.kid),
        [rotated.kid],
      );
    });
  });

  test('the next key is published ahead of the rotation, and signs from its time', async () => {
    await withApi(async (api) => {
      const kidOf = async () =>
        decodeProtectedHeader(await signJwt(api.storage, api.gateway.clock(), {})).kid;
      const publishedKids = async () =>
        (await api.inject({ method: 'GET', url: providerPaths.jwks }))
          .json<JSONWebKeySet>()
          .keys.map((key) => key.kid);
      const first = await kidOf();
      api.tick(signingKeyRotationMs - nextKeyLeadMs - 1);
      assert.deepEqual(await publishedKids(), [first]);
      api.tick(1);
      // Published, not yet signing.
      const [next, ...others] = await publishedKids();
      assert.deepEqual(others, [first]);
      assert.notEqual(next, first);
      api.tick(nextKeyLeadMs - 1);
      assert.equal(await kidOf(), first);
      api.tick(1);
      assert.equal(await kidOf(), next);
      const published = await api.storage.providerSigningKeys.published(api.gateway.clock());
      assert.deepEqual(
        published.map((key) => [key.kid, key.retiredAt === null]),
        [
          [next, true],
          [first, false],
        ],
      );
      // The key before stays published until its tokens have expired.
      api.tick(retiredKeyPublishedMs);
      assert.deepEqual(await publishedKids(), [next]);
    });
  });

  test('a gateway idle through the lead still publishes the next key for the whole lead', async () => {
    await withApi(async (api) => {
      const first = decodeProtectedHeader(await signJwt(api.storage, api.gateway.clock(), {})).kid;
      api.tick(signingKeyRotationMs + 1);
      // Overdue: the next key is made now, and the old one signs until it has been published long enough.
      assert.equal(
        decodeProtectedHeader(await signJwt(api.storage, api.gateway.clock(), {})).kid,
        first,
      );
      api.tick(nextKeyLeadMs);
      assert.notEqual(
        decodeProtectedHeader(await signJwt(api.storage, api.gateway.clock(), {})).kid,
        first,
      );
    });
  });

  test('two gateways on one database sign with the same key', async () => {
    await withApiOnFile(async (api) => {
      const other = await openStorage(api.gateway.config);
      try {
        const now = api.gateway.clock();
        const token = await signJwt(api.storage, now, { sub: 'alice' });
        const fromOther = await signJwt(other, now, { sub: 'alice' });
        assert.equal(decodeProtectedHeader(fromOther).kid, decodeProtectedHeader(token).kid);
        const rotated = await rotateSigningKey(other, now + 1);
        assert.equal(
          decodeProtectedHeader(await signJwt(api.storage, now + 1, {})).kid,
          rotated.kid,
        );
      } finally {
        await other.close();
      }
    });
  });
});
