import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { compileEntry } from '../../core/index.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { ForgingProvider } from './test-support/forging-provider.js';
import { signIdToken, startForgingProvider } from './test-support/forging-provider.js';

/**
 * Every id_token check refuses with its own code: tokens from a loopback
 * provider that signs with keys of the test's choosing (a forged signature,
 * an unknown key, no signature, expired, another audience, nonce or issuer).
 */
describe('id_token verification', () => {
  let gw: TestGateway;
  let provider: ForgingProvider;
  let strict: ForgingProvider;
  // The gateway's clock, moved past the key set's refetch interval where a test needs it.
  let now = Date.now();
  before(async () => {
    gw = await startTestGateway({ clock: () => now });
    provider = await startForgingProvider();
    strict = await startForgingProvider({ issParameterSupported: true });
    const entry = (id: string, forge: ForgingProvider) =>
      compileEntry({
        id,
        name: id,
        enabled: true,
        appid: forge.clientId,
        appsecret: 'forge-secret',
        oidc: { issuer: forge.issuer, userInfo: 'both' },
        provisioning: { userIdScope: 'entry' },
        // The verified claims in a token value, read by JWT_CLAIMS.
        tokenValues: [
          {
            name: 'subject',
            expression: "JSON_GET(JWT_CLAIMS(JSON_GET($response, 'id_token')), 'sub')",
          },
        ],
      }).input;
    await gw.storage.entries.create(entry('forge', provider), 0);
    await gw.storage.entries.create(entry('strict', strict), 1);
    // Values read from the claims and user info, used by a call after it.
    await gw.storage.entries.create(
      {
        ...entry('chain', provider),
        userInfoValues: [{ name: 'who', expression: "JSON_GET($response, 'name')" }],
        userInfoCalls: [
          {
            name: 'profile',
            url: `${provider.issuer}/userinfo?who=\${who}`,
            successCondition: undefined,
            mapping: "department = JSON_GET($response, 'name')",
          },
        ],
      },
      2,
    );
    gw.gateway.entries.invalidate();
  });
  after(async () => {
    await gw.close();
    await provider.close();
    await strict.close();
  });
  beforeEach(() => {
    provider.idToken = (context) => signIdToken(context);
    provider.userInfo = { sub: 'alice', name: 'Alice Forge' };
    provider.sendIss = true;
  });

  const signIn = async (entryId = 'forge') => gw.browser().open(`${gw.url}/_sso/login/${entryId}`);
  const assertRefused = async (code: string, status = 502) => {
    const page = await signIn();
    assert.equal(page.status, status, page.body.slice(0, 300));
    assert.match(page.body, new RegExp(code));
  };

  test('a valid token signs in, with the claims and the user-info answer merged', async () => {
    const page = await signIn();
    assert.equal(page.status, 200, page.body.slice(0, 300));
    const user = await gw.storage.users.findByUserId('forge:alice');
    assert.ok(user !== undefined);
    assert.equal(user.email, 'alice@forge.test');
    assert.equal(user.userName, 'Alice Forge');
  });

  test('values read from the claims and user info reach the calls after it', async () => {
    const page = await signIn('chain');
    assert.equal(page.status, 200, page.body.slice(0, 300));
    const user = await gw.storage.users.findByUserId('chain:alice');
    assert.equal(user?.department, 'Alice Forge');
  });

  test('a token signed with the published Ed25519 key (EdDSA, RFC 8037) signs in', async () => {
    provider.idToken = (context) =>
      signIdToken(context, {}, { key: context.publishedEdKey, kid: 'forge-ed', alg: 'EdDSA' });
    const page = await signIn();
    assert.equal(page.status, 200, page.body.slice(0, 300));
    assert.equal(page.url, `${gw.url}/`);
  });

  test('a signature by a key the provider never published is refused', async () => {
    provider.idToken = (context) => signIdToken(context, {}, { key: context.unpublishedKey });
    await assertRefused('id_token_invalid_signature');
  });

  test('an unknown kid fetches the key set again, at most once a minute, then refuses', async () => {
    provider.idToken = (context) =>
      signIdToken(context, {}, { key: context.unpublishedKey, kid: 'rotated-away' });
    now += 61_000;
    const before = provider.keySetFetches;
    await assertRefused('id_token_invalid_signature');
    const afterFirst = provider.keySetFetches;
    assert.ok(afterFirst > before, 'the key set was fetched again for the unknown kid');
    await assertRefused('id_token_invalid_signature');
    assert.equal(provider.keySetFetches, afterFirst, 'not again within the minute');
    now += 61_000;
    await assertRefused('id_token_invalid_signature');
    assert.equal(provider.keySetFetches, afterFirst + 1, 'again after the minute');
  });

  test('an unsigned token or one signed with the client secret (HS256) is refused', async () => {
    provider.idToken = async (context) => {
      const valid = await signIdToken(context);
      const [, payload] = valid.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', kid: 'forge-1' })).toString(
        'base64url',
      );
      return `${header}.${payload ?? ''}.`;
    };
    await assertRefused('id_token_invalid_signature');
    provider.idToken = (context) =>
      new SignJWT({
        iss: context.issuer,
        aud: context.clientId,
        sub: 'alice',
        nonce: context.nonce,
      })
        .setProtectedHeader({ alg: 'HS256', kid: 'forge-1' })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode('forge-secret'));
    await assertRefused('id_token_invalid_signature');
  });

  test('an expired token is refused', async () => {
    provider.idToken = (context) => {
      const seconds = Math.floor(context.now / 1000);
      return signIdToken(context, { iat: seconds - 3600, exp: seconds - 600 });
    };
    await assertRefused('id_token_expired');
  });

  test('a token issued in the future is refused', async () => {
    provider.idToken = (context) =>
      signIdToken(context, { iat: Math.floor(context.now / 1000) + 3600 });
    await assertRefused('id_token_issued_at');
  });

  test('a token for another client, or for several without azp, is refused', async () => {
    provider.idToken = (context) => signIdToken(context, { aud: 'another-client' });
    await assertRefused('id_token_audience');
    provider.idToken = (context) => signIdToken(context, { aud: [context.clientId, 'another'] });
    await assertRefused('id_token_audience');
    provider.idToken = (context) =>
      signIdToken(context, { aud: [context.clientId, 'another'], azp: context.clientId });
    assert.equal((await signIn()).status, 200);
  });

  test('a token carrying another sign-in’s nonce, or none, is refused', async () => {
    provider.idToken = (context) => signIdToken(context, { nonce: 'replayed-from-elsewhere' });
    await assertRefused('id_token_nonce');
    provider.idToken = (context) => signIdToken(context, { nonce: undefined });
    await assertRefused('id_token_nonce');
  });

  test('a token from another issuer is refused', async () => {
    provider.idToken = (context) => signIdToken(context, { iss: 'https://other.example' });
    await assertRefused('id_token_issuer');
  });

  test('a user-info answer about another subject is refused (OpenID Connect Core §5.3.2)', async () => {
    provider.userInfo = { sub: 'mallory', name: 'Mallory' };
    await assertRefused('userinfo_subject_mismatch');
  });

  test('a provider that declares RFC 9207 support must send iss on the callback', async () => {
    strict.sendIss = false;
    const page = await signIn('strict');
    assert.equal(page.status, 400);
    assert.match(page.body, /callback_issuer_mismatch/);
    strict.sendIss = true;
    assert.equal((await signIn('strict')).status, 200);
  });
});
