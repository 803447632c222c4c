import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeControl, excerpt } from './excerpt.js';

describe('excerpt', () => {
  it('keeps short text and cuts long text with an ellipsis', () => {
    assert.equal(excerpt('hello'), 'hello');
    assert.equal(excerpt('a'.repeat(80)), 'a'.repeat(80));
    assert.equal(excerpt('a'.repeat(81)), `${'a'.repeat(80)}…`);
    assert.equal(excerpt('abcdef', 3), 'abc…');
    assert.equal(excerpt('abc', 0), '…');
  });

  it('escapes CR/LF and other control characters (log injection)', () => {
    assert.equal(excerpt('line1\r\nFAKE LOG LINE'), 'line1\\r\\nFAKE LOG LINE');
    assert.equal(
      excerpt('a\tb\u0000c\u001bd\u007fe\u0085f'),
      'a\\tb\\u0000c\\u001bd\\u007fe\\u0085f',
    );
    assert.equal(excerpt('x\u2028y\u202ez\u2066'), 'x\\u2028y\\u202ez\\u2066');
  });

  it('cuts before escaping and never splits a surrogate pair', () => {
    assert.equal(excerpt('\n\n\n\n', 2), '\\n\\n…');
    assert.equal(excerpt('ab😀', 3), 'ab…');
    assert.equal(excerpt('ab😀', 4), 'ab😀');
  });

  it('keeps printable Unicode and escapes lone surrogates', () => {
    assert.equal(escapeControl('héllo 日本 😀'), 'héllo 日本 😀');
    assert.equal(escapeControl('a\ud800b\udc00'), 'a\\ud800b\\udc00');
  });
});
