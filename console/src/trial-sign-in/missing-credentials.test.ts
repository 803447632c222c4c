import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyDraft } from '../entry-form/entry-draft.js';
import { missingCredentials } from './missing-credentials.js';

const uses = '${appid} ${app_secret}';

describe('the credentials a test sign-in needs first', () => {
  test('an entry that uses both, neither typed: both named', () => {
    assert.deepEqual(missingCredentials({ ...emptyDraft, type: 'oauth2' }, uses), [
      'appid',
      'appsecret',
    ]);
  });

  test('typed, or a stored secret kept: nothing missing', () => {
    const typed = {
      ...emptyDraft,
      type: 'oauth2' as const,
      appid: 'Iv1.x',
      appsecret: { stored: false, mode: 'replace' as const, value: 's' },
    };
    assert.deepEqual(missingCredentials(typed, uses), []);
    const stored = { ...typed, appsecret: { stored: true, mode: 'keep' as const, value: '' } };
    assert.deepEqual(missingCredentials(stored, uses), []);
    const cleared = { ...typed, appsecret: { stored: true, mode: 'clear' as const, value: '' } };
    assert.deepEqual(missingCredentials(cleared, uses), ['appsecret']);
  });

  test('a public client without a secret, and an extension entry, are not held back', () => {
    const publicClient = { ...emptyDraft, type: 'oauth2' as const, appid: 'web' };
    assert.deepEqual(missingCredentials(publicClient, 'client_id=${appid}'), []);
    assert.deepEqual(missingCredentials({ ...emptyDraft, type: 'extension' }, uses), []);
    // HTTP Basic sends both whatever the templates say.
    const basic = { ...publicClient, clientAuthentication: 'basic' as const };
    assert.deepEqual(missingCredentials(basic, ''), ['appsecret']);
  });
});
