import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { compileOAuth2Entry } from '../entry/validate-entry.js';
import { buildGetEntry, buildStandardEntry, sequenceRandom } from '../test-support/entries.js';
import { buildAuthorizationRequest } from './authorization-request.js';
import { pkceChallenge } from './pkce.js';

const publicUrl = 'https://gate.corp.example/';

describe('buildAuthorizationRequest', () => {
  test('renders a GET-style template with state, appid and the callback URL encoded once', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const request = buildAuthorizationRequest(entry, { publicUrl, random: sequenceRandom() });
    assert.equal(request.state, 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8');
    assert.equal(request.redirectUri, 'https://gate.corp.example/_sso/callback/corp');
    assert.equal(
      request.url,
      'https://as.example/oauth/authorize?appid=app-1' +
        '&redirect_uri=https%3A%2F%2Fgate.corp.example%2F_sso%2Fcallback%2Fcorp' +
        `&state=${request.state}`,
    );
    assert.equal(request.codeVerifier, undefined);
    assert.equal(new URL(request.url).searchParams.get('redirect_uri'), request.redirectUri);
  });

  test('states are fresh, unique, URL-safe and at least 128 bits', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const states = new Set<string>();
    for (let index = 0; index < 1000; index += 1) {
      const { state } = buildAuthorizationRequest(entry, { publicUrl, random: randomBytes });
      assert.match(state, /^[A-Za-z0-9_-]{43}$/);
      states.add(state);
    }
    assert.equal(states.size, 1000);
  });

  test('PKCE adds an S256 challenge and keeps the verifier server-side', () => {
    const entry = compileOAuth2Entry(buildStandardEntry());
    const request = buildAuthorizationRequest(entry, { publicUrl, random: randomBytes });
    const query = new URL(request.url).searchParams;
    assert.ok(request.codeVerifier !== undefined);
    assert.match(request.codeVerifier, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(query.get('code_challenge'), pkceChallenge(request.codeVerifier));
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.equal(request.url.includes(request.codeVerifier), false);
    // The administrator's literal query is kept byte for byte.
    assert.ok(request.url.includes('&scope=openid%20profile&code_challenge='));
  });

  test('the RFC 7636 Appendix B example challenge', () => {
    assert.equal(
      pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('an entry id with characters is encoded in the callback path', () => {
    const entry = compileOAuth2Entry(buildGetEntry({ id: 'a-1' }));
    const request = buildAuthorizationRequest(entry, {
      publicUrl: 'http://localhost:8080',
      random: randomBytes,
    });
    assert.equal(request.redirectUri, 'http://localhost:8080/_sso/callback/a-1');
  });
});
