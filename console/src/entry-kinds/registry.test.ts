import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { entryKindOf, entryKinds } from './registry.js';

describe('the registry of entry kinds', () => {
  test('each kind is found by its own type, once, in the order of the Type field', () => {
    assert.deepEqual(
      entryKinds.map((kind) => kind.id),
      ['oauth2', 'extension', 'ldap', 'saml'],
    );
    for (const kind of entryKinds) assert.equal(entryKindOf({ type: kind.id }), kind);
  });
});
