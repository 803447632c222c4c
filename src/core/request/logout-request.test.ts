import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { compileOAuth2Entry } from '../entry/validate-entry.js';
import { buildGetEntry, canarySecret } from '../test-support/entries.js';
import { buildLogoutRequest } from './logout-request.js';

const options = { publicUrl: 'https://gate.corp.example', random: randomBytes };

describe('buildLogoutRequest', () => {
  test('no logout URL: nothing to send', () => {
    assert.equal(buildLogoutRequest(compileOAuth2Entry(buildGetEntry()), options), undefined);
  });

  test('a browser redirect back to the signed-out page', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({
        logoutUrl: 'https://as.example/logout?appid=${appid}&redirect_uri=${redirect_uri}',
      }),
    );
    assert.deepEqual(buildLogoutRequest(entry, options), {
      channel: 'front',
      url: 'https://as.example/logout?appid=app-1&redirect_uri=https%3A%2F%2Fgate.corp.example%2F_sso%2Fsigned-out',
    });
  });

  test('a template holding the secret is called server-to-server instead', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({
        logoutUrl: 'https://as.example/logout?appid=${appid}&secret=${app_secret}&state=${state}',
      }),
    );
    const logout = buildLogoutRequest(entry, options);
    assert.ok(logout?.channel === 'back');
    assert.ok(logout.request.url.includes(canarySecret));
  });
});
