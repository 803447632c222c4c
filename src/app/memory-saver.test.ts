import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveHeapMemory } from './memory-saver.js';

test("an operator's own memory saver flag on the command line is left as given", () => {
  assert.equal(saveHeapMemory(['--memory-saver-mode']), false);
  assert.equal(saveHeapMemory(['--no-memory-saver-mode']), false);
  assert.equal(saveHeapMemory(['--memory-saver-mode=false', '--enable-source-maps']), false);
});

test('without one, the mode is set', () => {
  assert.equal(saveHeapMemory(['--max-semi-space-size=1']), true);
});
