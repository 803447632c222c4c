import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { providerRefusal } from './refusals.js';
import {
  clientCredentials,
  clientSecretHolds,
  codeExchangeRefusal,
  grantRequest,
  tokenParameters,
} from './token-request.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const verifier = 'a-pkce-code-verifier-of-enough-length-0123456789';
const challenge = hash('sha256', verifier, 'base64url');

describe('the token request', () => {
  test('a parameter given twice is refused; a parameter named like a refusal is a parameter', () => {
    assert.deepEqual(tokenParameters({ code: ['a', 'b'] }), {
      refused: 'provider_token_parameter_repeated',
    });
    assert.deepEqual(tokenParameters({ refused: 'x' }), { parameters: { refused: 'x' } });
    assert.deepEqual(tokenParameters(undefined), { parameters: {} });
  });

  test('a client authenticates one way, as one client', () => {
    assert.deepEqual(clientCredentials(basic('app', 's e+c'), {}), {
      clientId: 'app',
      secret: 's e+c',
    });
    assert.deepEqual(clientCredentials(undefined, { client_id: 'app', client_secret: 's' }), {
      clientId: 'app',
      secret: 's',
    });
    assert.deepEqual(clientCredentials(undefined, { client_id: 'spa' }), {
      clientId: 'spa',
      secret: undefined,
    });
    assert.deepEqual(clientCredentials(basic('app', 's'), { client_id: 'app' }), {
      clientId: 'app',
      secret: 's',
    });
    const refused = { refused: 'provider_client_credentials_invalid' };
    assert.deepEqual(clientCredentials(basic('app', 's'), { client_secret: 's' }), refused);
    assert.deepEqual(clientCredentials(basic('app', 's'), { client_id: 'other' }), refused);
    assert.deepEqual(clientCredentials(undefined, {}), refused);
    assert.deepEqual(clientCredentials('Basic bm9jb2xvbg==', {}), refused);
  });

  test("a confidential client's secret is its hash's; a public client sends none", () => {
    const secretHash = hash('sha256', 'ssgc_secret', 'base64url');
    assert.equal(clientSecretHolds(secretHash, 'ssgc_secret'), true);
    assert.equal(clientSecretHolds(secretHash, 'ssgc_other'), false);
    assert.equal(clientSecretHolds(secretHash, undefined), false);
    assert.equal(clientSecretHolds(null, undefined), true);
    assert.equal(clientSecretHolds(null, ''), false);
  });

  test('the grant asked for, or why it is refused', () => {
    assert.deepEqual(grantRequest({ grant_type: 'authorization_code', code: 'c' }, false), {
      grantType: 'authorization_code',
      code: 'c',
      redirectUri: undefined,
      codeVerifier: undefined,
    });
    assert.deepEqual(grantRequest({ grant_type: 'refresh_token', refresh_token: 'r' }, true), {
      grantType: 'refresh_token',
      refreshToken: 'r',
    });
    const refusal = (parameters: Record<string, string>, refreshTokens: boolean) =>
      (grantRequest(parameters, refreshTokens) as { refused?: string }).refused;
    assert.equal(refusal({ grant_type: 'authorization_code' }, false), 'provider_code_missing');
    assert.equal(refusal({ grant_type: 'password' }, true), 'provider_unsupported_grant_type');
    assert.equal(refusal({}, true), 'provider_unsupported_grant_type');
    assert.equal(refusal({ grant_type: 'refresh_token' }, false), 'provider_refresh_not_allowed');
    assert.equal(refusal({ grant_type: 'refresh_token' }, true), 'provider_refresh_token_missing');
  });

  test('PKCE: the verifier proves the challenge, or neither is there (RFC 7636 §4.6)', () => {
    const redirectUri = 'https://app.example/cb';
    const refusal = (codeChallenge: string | null, codeVerifier: string | undefined) =>
      codeExchangeRefusal({ redirectUri, codeChallenge }, { redirectUri, codeVerifier });
    const wrong = 'provider_code_verifier_wrong';
    assert.equal(refusal(challenge, verifier), undefined);
    assert.equal(refusal(challenge, `${verifier}x`), wrong);
    assert.equal(refusal(challenge, undefined), wrong);
    assert.equal(refusal(hash('sha256', 'short', 'base64url'), 'short'), wrong);
    assert.equal(refusal(null, undefined), undefined);
    assert.equal(refusal(null, verifier), wrong);
  });

  test('a redeemed code is refused for another redirect URI, then for a wrong verifier', () => {
    const code = { redirectUri: 'https://app.example/cb', codeChallenge: challenge };
    const asked = { redirectUri: 'https://app.example/cb', codeVerifier: verifier };
    assert.equal(codeExchangeRefusal(code, asked), undefined);
    assert.equal(
      codeExchangeRefusal(code, { redirectUri: undefined, codeVerifier: 'wrong' }),
      'provider_code_redirect_uri',
    );
    assert.equal(
      codeExchangeRefusal(code, { ...asked, codeVerifier: undefined }),
      'provider_code_verifier_wrong',
    );
  });

  test('a reused code and an unknown one answer the same; the audit tells them apart', () => {
    const reused = providerRefusal('provider_code_reused');
    const unknown = providerRefusal('provider_code_invalid');
    assert.deepEqual(
      [reused.status, reused.error, reused.description],
      [unknown.status, unknown.error, unknown.description],
    );
    assert.deepEqual(
      [reused.auditCode, unknown.auditCode],
      ['provider_code_reused', 'provider_code_invalid'],
    );
    assert.equal(providerRefusal('provider_grant_user_refused').auditCode, 'oidc_user_refused');
    assert.equal(providerRefusal('provider_client_secret_wrong').status, 401);
  });
});
