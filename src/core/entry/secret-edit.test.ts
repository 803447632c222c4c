import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secretAfter, secretChange, withSecretAfter } from './secret-edit.js';

describe('the write-only secret rule', () => {
  it('keeps the stored secret when none is sent, or a blank one', () => {
    assert.equal(secretChange(undefined), 'keep');
    assert.equal(secretChange(''), 'keep');
    assert.equal(secretAfter(undefined, 'stored-secret'), 'stored-secret');
    assert.equal(secretAfter('', 'stored-secret'), 'stored-secret');
    assert.equal(secretAfter('', undefined), undefined);
  });

  it('clears it on null', () => {
    assert.equal(secretChange(null), 'clear');
    assert.equal(secretAfter(null, 'stored-secret'), undefined);
  });

  it('sets any other value, left for validation to judge', () => {
    assert.equal(secretChange('new-secret'), 'set');
    assert.equal(secretChange(' '), 'set');
    assert.equal(secretChange(42), 'set');
    assert.equal(secretAfter('new-secret', 'stored-secret'), 'new-secret');
    assert.equal(secretAfter(42, 'stored-secret'), 42);
  });

  it('puts the secret as the write leaves it into the fields, absent when there is none', () => {
    const sent = { id: 'wiki', appsecret: '', extensionSecret: null };
    assert.deepEqual(withSecretAfter(sent, 'appsecret', 'stored-secret'), {
      id: 'wiki',
      appsecret: 'stored-secret',
      extensionSecret: null,
    });
    assert.deepEqual(withSecretAfter(sent, 'appsecret', undefined), {
      id: 'wiki',
      extensionSecret: null,
    });
    assert.deepEqual(withSecretAfter(sent, 'extensionSecret', 'stored-secret'), {
      id: 'wiki',
      appsecret: '',
    });
    assert.deepEqual(withSecretAfter({ appsecret: 'new-secret' }, 'appsecret', 'stored-secret'), {
      appsecret: 'new-secret',
    });
  });
});
