import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isRedirectUriOf } from './redirect-uris.js';

const redirectUris = [
  'https://app.example/cb',
  'http://127.0.0.1/callback',
  'http://[::1]:8080/cb?app=1',
];
const confidential = { redirectUris, secretHash: 'a-hash' };
const publicClient = { redirectUris, secretHash: null };

describe('redirect URI matching', () => {
  test('exactly as registered: no prefix, no case folding, no extra query', () => {
    for (const client of [confidential, publicClient]) {
      assert.equal(isRedirectUriOf(client, 'https://app.example/cb'), true);
      assert.equal(isRedirectUriOf(client, 'https://app.example/cb/more'), false);
      assert.equal(isRedirectUriOf(client, 'https://APP.example/cb'), false);
      assert.equal(isRedirectUriOf(client, 'https://app.example/cb?x=1'), false);
      assert.equal(isRedirectUriOf(client, 'https://app.example:443/cb'), false);
    }
  });

  test("a public client's loopback IP URI on any port (RFC 8252 §7.3), the rest exact", () => {
    assert.equal(isRedirectUriOf(publicClient, 'http://127.0.0.1:51234/callback'), true);
    assert.equal(isRedirectUriOf(publicClient, 'http://[::1]/cb?app=1'), true);
    assert.equal(isRedirectUriOf(publicClient, 'http://[::1]:1/cb?app=2'), false);
    assert.equal(isRedirectUriOf(publicClient, 'http://127.0.0.1:0/callback'), false);
    assert.equal(isRedirectUriOf(publicClient, 'http://127.0.0.1:65536/callback'), false);
    assert.equal(isRedirectUriOf(publicClient, 'http://localhost:5000/callback'), false);
    assert.equal(isRedirectUriOf(publicClient, 'https://127.0.0.1:5000/callback'), false);
    assert.equal(isRedirectUriOf(confidential, 'http://127.0.0.1:51234/callback'), false);
  });
});
