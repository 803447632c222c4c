import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { sessionHash } from '../sessions/session-service.js';
import {
  clientSecret,
  discoverProvider,
  registerClient,
  codeFlow,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/**
 * The gateway as an OpenID Provider, driven by a relying party nobody here
 * wrote (npm's openid-client): discovery, code with PKCE, the id_token
 * checked by it, userinfo; the user signs in through an entry whose server
 * answers in `errcode` envelopes.
 */
describe('OpenID Provider: a real relying party', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
    await registerClient(gw, 'grafana');
    await registerClient(gw, 'spa', { secretHash: null });
  });
  after(() => gw.close());

  const signInThrough = (config: client.Configuration, browser = gw.browser()) =>
    codeFlow(config, browser);

  const discover = (clientId: string, auth: client.ClientAuth) =>
    discoverProvider(gw.url, clientId, auth);

  test('a confidential client: discovery, sign-in at the entry, id_token, userinfo', async () => {
    const config = await discover('grafana', client.ClientSecretBasic(clientSecret));
    assert.equal(config.serverMetadata().issuer, gw.url);
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const { tokens, nonce } = await signInThrough(config, browser);
    const claims = tokens.claims();
    assert.ok(claims !== undefined);
    assert.deepEqual(
      [
        claims.iss,
        claims.aud,
        claims.sub,
        claims.nonce,
        claims.ssogate_entry,
        claims.name,
        claims.email,
      ],
      [gw.url, 'grafana', 'alice', nonce, 'corp', 'Alice Example', 'alice@example.test'],
    );
    assert.equal(
      claims.acr,
      undefined,
      'one factor: no acr (docs/openid-provider.md#assurance-acr)',
    );
    assert.equal(typeof claims.auth_time, 'number');
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.deepEqual([info.sub, info.email], ['alice', 'alice@example.test']);

    // Signed in at the gateway now: a second client gets its code with no page at all.
    const spa = await discover('spa', client.None());
    const again = await signInThrough(spa, browser);
    assert.equal(again.tokens.claims()?.aud, 'spa');
    assert.equal(claims.amr, undefined, "an entry's sign-in alone: its provider's methods, unsaid");

    // With a second factor on the sign-in (RFC 8176): otp and mfa, and when it was given.
    const id = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const user = await gw.storage.users.findByUserId('alice');
    assert.ok(user !== undefined);
    const at = gw.gateway.clock();
    await gw.storage.sessions.recordFactor(
      { idHash: sessionHash(id), userRowId: user.id },
      { method: 'totp', at },
    );
    const stepped = (await signInThrough(spa, browser)).tokens.claims();
    assert.deepEqual(stepped?.amr, ['otp', 'mfa']);
    // Stated though the request asked for none: the assurance the factor gives (Core §2).
    assert.equal(stepped.acr, 'http://schemas.openid.net/pape/policies/2007/06/multi-factor');
    assert.equal(stepped.ssogate_factor_time, Math.floor(at / 1000));
  });

  test('client_secret_post, and a public client with PKCE alone', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'bob');
    const post = await discover('grafana', client.ClientSecretPost(clientSecret));
    assert.equal((await signInThrough(post, browser)).tokens.claims()?.sub, 'bob');
    const spa = await discover('spa', client.None());
    assert.equal((await signInThrough(spa, browser)).tokens.claims()?.sub, 'bob');
  });

  test('a wrong secret is refused with a Basic challenge', async () => {
    const config = await discover('grafana', client.ClientSecretBasic('ssgc_wrong'));
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    await assert.rejects(signInThrough(config, browser), (error: Error) => {
      // 401 with the Basic challenge RFC 6749 §5.2 asks for, which the client reports as such.
      assert.equal(error.name, 'WWWAuthenticateChallengeError');
      assert.deepEqual(error.cause, [{ scheme: 'basic', parameters: { realm: 'ssogate' } }]);
      return true;
    });
  });
});
