import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSsogateError } from '../errors/ssogate-error.js';
import { compileOAuth2Entry } from '../entry/validate-entry.js';
import {
  buildGetEntry,
  buildPostEntry,
  buildStandardEntry,
  canarySecret,
} from '../test-support/entries.js';
import { buildTokenRequest } from './token-request.js';

const redirectUri = 'https://gate.corp.example/_sso/callback/corp';

describe('buildTokenRequest', () => {
  test('GET keeps the query in the URL, every value percent-encoded', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const request = buildTokenRequest(entry, {
      code: 'a&b=c d/中',
      redirectUri,
      codeVerifier: undefined,
    });
    assert.equal(request.method, 'GET');
    assert.equal(request.body, undefined);
    assert.equal(
      request.url,
      `https://as.example/oauth/token?appid=app-1&secret=${canarySecret}` +
        '&code=a%26b%3Dc%20d%2F%E4%B8%AD&redirect_uri=https%3A%2F%2Fgate.corp.example%2F_sso%2Fcallback%2Fcorp',
    );
    assert.equal(request.timeoutMs, 10_000);
    assert.equal(request.maxResponseBytes, 1024 * 1024);
  });

  test('POST sends a JSON object of the decoded values, literal parameters included', () => {
    const entry = compileOAuth2Entry(buildPostEntry());
    const code = 'a","grant_type":"password';
    const request = buildTokenRequest(entry, { code, redirectUri, codeVerifier: undefined });
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'https://as.example/oauth/token');
    assert.equal(request.headers['content-type'], 'application/json;charset=utf-8');
    assert.deepEqual(JSON.parse(request.body ?? ''), {
      grant_type: 'authorization_code',
      appid: 'app-1',
      secret: canarySecret,
      code,
      redirect_uri: redirectUri,
    });
  });

  test('a form POST with HTTP Basic client authentication and the PKCE verifier', () => {
    const entry = compileOAuth2Entry(buildStandardEntry({ appid: 'my:app', appsecret: 's p&c' }));
    const request = buildTokenRequest(entry, {
      code: 'c+1',
      redirectUri,
      codeVerifier: 'verifier-1',
    });
    assert.equal(request.url, 'https://as.example/token');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
      grant_type: 'authorization_code',
      code: 'c+1',
      redirect_uri: redirectUri,
      code_verifier: 'verifier-1',
    });
    // RFC 6749 §2.3.1: id and secret form-encoded, then joined and base64-encoded.
    assert.equal(
      request.headers.authorization,
      `Basic ${Buffer.from('my%3Aapp:s+p%26c').toString('base64')}`,
    );
  });

  test('the PKCE verifier joins the query of a GET token call', () => {
    const entry = compileOAuth2Entry(buildGetEntry({ pkce: true }));
    const request = buildTokenRequest(entry, { code: 'c', redirectUri, codeVerifier: 'v-1' });
    assert.equal(new URL(request.url).searchParams.get('code_verifier'), 'v-1');
  });

  test('per-call headers render their placeholders', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({ tokenRequest: { headers: [{ name: 'X-App', value: 'id=${appid}' }] } }),
    );
    const request = buildTokenRequest(entry, { code: 'c', redirectUri, codeVerifier: undefined });
    assert.equal(request.headers['x-app'], 'id=app-1');
    assert.equal(request.headers.accept, 'application/json');
  });

  test('a template that needs the secret fails with a coded error when none is set', () => {
    const entry = compileOAuth2Entry(buildGetEntry({ appsecret: undefined }));
    assert.throws(
      () => buildTokenRequest(entry, { code: 'c', redirectUri, codeVerifier: undefined }),
      (error: unknown) => isSsogateError(error) && error.code === 'template_value_missing',
    );
  });
});
