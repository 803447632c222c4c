import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { nextKeyLeadMs, signingKeyRotationMs } from './lifetimes.js';
import {
  idTokenOfAlice,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/**
 * A relying party that keeps the key set, as jose's createRemoteJWKSet
 * does (openid-client alike): a token naming a kid it does not know makes
 * it fetch the set again only after a 30-second cool-down. The scheduled
 * rotation publishes the next key ahead, so the first token it signs
 * verifies against the set fetched before.
 */
describe('OpenID Provider: a scheduled key rotation, seen by a relying party', () => {
  let gw: TestGateway;
  let now = Date.now();
  before(async () => {
    gw = await startProviderGateway({ clock: () => now });
    await registerClient(gw, 'app');
  });
  after(() => gw.close());

  const idToken = () => idTokenOfAlice(gw);

  test('the first id_token of the next key verifies against the key set kept from before', async () => {
    const first = await idToken();
    now += signingKeyRotationMs - nextKeyLeadMs;
    const before = await idToken();
    assert.equal(decodeProtectedHeader(before).kid, decodeProtectedHeader(first).kid);
    // The relying party fetches the key set (and keeps it) to verify a token.
    const keys = createRemoteJWKSet(new URL(`${gw.url}/_sso/oidc/jwks`));
    await jwtVerify(before, keys, { issuer: gw.url, audience: 'app', currentDate: new Date(now) });

    now += nextKeyLeadMs;
    const rotated = await idToken();
    assert.notEqual(decodeProtectedHeader(rotated).kid, decodeProtectedHeader(before).kid);
    // Within the cool-down: no second fetch, and none needed.
    const { payload } = await jwtVerify(rotated, keys, {
      issuer: gw.url,
      audience: 'app',
      currentDate: new Date(now),
    });
    assert.equal(payload.sub, 'alice');
  });
});
