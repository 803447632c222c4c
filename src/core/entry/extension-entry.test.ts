import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGetEntry } from '../test-support/entries.js';
import { validateExtensionTarget } from './compile-extension.js';
import { compileEntry, compileOAuth2Entry, validateEntry } from './validate-entry.js';

const extensionEntry = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'acme',
  name: 'Acme',
  enabled: true,
  type: 'extension',
  extensionUrl: 'https://ext.corp.example/acme/',
  extensionSecret: 'a-shared-secret-of-some-length',
  ...overrides,
});

function problemsOf(input: unknown): string[] {
  const result = validateEntry(input);
  if (result.ok) assert.fail('expected the entry to be refused');
  return result.problems.map(({ field, message }) => `${field ?? ''}: ${message}`);
}

describe('entries of type extension', () => {
  test('compile without any OAuth2 template; the URL loses its trailing slash', () => {
    const entry = compileEntry(
      extensionEntry({ appid: 'client-1', extensionSettings: { serverUrl: 'https://a' } }),
    );
    assert.ok(entry.type === 'extension');
    assert.deepEqual(entry.extension, {
      url: 'https://ext.corp.example/acme',
      secret: 'a-shared-secret-of-some-length',
      settings: { serverUrl: 'https://a' },
    });
    assert.equal(entry.appid, 'client-1');
    assert.equal(entry.timeoutMs, 10_000);
  });

  test('OAuth2 fields left over from a type switch are kept but not checked', () => {
    const result = validateEntry(
      extensionEntry({ authorizeUrl: 'not a ${template', tokenParse: '(' }),
    );
    assert.ok(result.ok);
    assert.equal(result.entry.input.authorizeUrl, 'not a ${template');
  });

  test('URL and secret are required; every problem is reported at once', () => {
    assert.deepEqual(problemsOf(extensionEntry({ extensionUrl: '', extensionSecret: undefined })), [
      'extensionUrl: is required for an entry of type extension',
      'extensionSecret: is required for an entry of type extension (the secret shared with the extension)',
    ]);
    assert.deepEqual(
      problemsOf(
        extensionEntry({
          extensionUrl: 'javascript:alert(1)',
          extensionSecret: 'short',
          extensionSettings: { '1st': 'x', ok: 3 },
          isDefault: true,
          enabled: false,
        }),
      ).map((problem) => problem.split(':')[0]),
      ['extensionSettings.1st', 'extensionSettings.ok', 'extensionUrl', 'extensionSecret'],
    );
  });

  test('a URL with credentials, a query or a fragment is not a base URL', () => {
    for (const extensionUrl of [
      'https://user:pw@ext.example/',
      'https://ext.example/?a=1',
      'https://ext.example/#x',
      'ext.example',
    ]) {
      assert.equal(problemsOf(extensionEntry({ extensionUrl }))[0]?.split(':')[0], 'extensionUrl');
    }
  });

  test('plain http is a warning here; the call itself is refused off loopback', () => {
    const result = validateEntry(extensionEntry({ extensionUrl: 'http://ext.example' }));
    assert.ok(result.ok);
    assert.match(result.warnings[0] ?? '', /plain http/);
  });

  test('an OAuth2 entry still requires its templates, and compileOAuth2Entry refuses extensions', () => {
    assert.deepEqual(problemsOf({ id: 'x', name: 'X', enabled: true, type: 'oauth2' }), [
      'authorizeUrl: is required',
      'tokenUrl: is required',
      'tokenParse: is required',
      'userInfoUrl: is required',
    ]);
    assert.equal(compileOAuth2Entry(buildGetEntry()).type, 'oauth2');
    assert.throws(() => compileOAuth2Entry(extensionEntry()), /type: must be oauth2/);
    assert.deepEqual(problemsOf(extensionEntry({ type: 'kerberos' }))[0]?.split(':')[0], 'type');
  });

  test('the URL and secret alone, for test connection', () => {
    const ok = validateExtensionTarget({
      extensionUrl: 'https://ext.example',
      extensionSecret: 'a-shared-secret-of-some-length',
    });
    assert.ok(ok.ok);
    const refused = validateExtensionTarget({ extensionUrl: 42, extensionSecret: undefined });
    assert.ok(!refused.ok);
    assert.deepEqual(
      refused.problems.map(({ field, message }) => `${field ?? ''}: ${message}`),
      [
        'extensionUrl: must be text',
        'extensionSecret: is required for an entry of type extension (the secret shared with the extension)',
      ],
    );
  });
});
