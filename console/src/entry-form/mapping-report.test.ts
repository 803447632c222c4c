import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mappingLineText } from './mapping-report.js';
import { en, zhCN } from '../i18n/catalogs.js';

describe("the test panel's mapping lines", () => {
  test('each outcome reads as one sentence with its line and attribute', () => {
    assert.equal(
      mappingLineText(
        {
          attribute: 'userId',
          line: 2,
          required: true,
          outcome: 'mapped',
          value: 'alice',
        },
        en.entryForm,
      ),
      'line 2, userId (required): "alice"',
    );
    assert.equal(
      mappingLineText(
        {
          attribute: 'department',
          line: 4,
          required: false,
          outcome: 'missing',
          error: { code: 'key_not_found', message: "key 'org' not found" },
        },
        en.entryForm,
      ),
      "line 4, department: key 'org' not found — optional, left unset",
    );
    assert.equal(
      mappingLineText(
        {
          attribute: 'email',
          row: 3,
          required: true,
          outcome: 'failed',
          error: { code: 'key_not_found', message: "key 'mail' not found" },
        },
        en.entryForm,
      ),
      "row 3, email (required): key 'mail' not found",
    );
  });

  test('in Chinese, with the value and the attribute as they are', () => {
    assert.equal(
      mappingLineText(
        { attribute: 'userId', line: 2, required: true, outcome: 'mapped', value: 'alice' },
        zhCN.entryForm,
      ),
      '第 2 行, userId （必填）：取值 "alice"',
    );
  });
});
