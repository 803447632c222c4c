import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mappingLineText } from './mapping-report.js';

describe("the test panel's mapping lines", () => {
  test('each outcome reads as one sentence with its line and attribute', () => {
    assert.equal(
      mappingLineText({
        attribute: 'userId',
        line: 2,
        required: true,
        outcome: 'mapped',
        value: 'alice',
      }),
      'line 2, userId (required): "alice"',
    );
    assert.equal(
      mappingLineText({
        attribute: 'department',
        line: 4,
        required: false,
        outcome: 'missing',
        error: { code: 'key_not_found', message: "key 'org' not found" },
      }),
      "line 4, department: key 'org' not found — optional, left unset",
    );
    assert.equal(
      mappingLineText({
        attribute: 'email',
        row: 3,
        required: true,
        outcome: 'failed',
        error: { code: 'key_not_found', message: "key 'mail' not found" },
      }),
      "row 3, email (required): key 'mail' not found",
    );
  });
});
