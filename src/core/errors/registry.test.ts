import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ProviderRefusalCode } from '../provider/refusals.js';
import { providerRefusal } from '../provider/refusals.js';
import type { ErrorCode } from './registry.js';
import { errorCodes, errorRegistry, isErrorCode } from './registry.js';
import { SsogateError } from './ssogate-error.js';

// Compiled to build/src/core/errors/, so the docs are four levels up.
const errorsDoc = fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url));

/** The codes of docs/errors.md: the first cell of each table row, in backticks. */
async function documentedCodes(): Promise<string[]> {
  const text = await readFile(errorsDoc, 'utf8');
  return [...text.matchAll(/^\|\s*`([a-z_]+)`\s*\|/gm)].map((match) => match[1] ?? '');
}

/** The codes of the provider's refusals: those with an OAuth answer. */
const isProviderRefusalCode = (code: ErrorCode): code is ProviderRefusalCode =>
  'oauth' in errorRegistry[code];

describe('the error registry', () => {
  test('every code is documented in docs/errors.md', async () => {
    const documented = new Set(await documentedCodes());
    assert.deepEqual(
      errorCodes.filter((code) => !documented.has(code)),
      [],
    );
  });

  test('docs/errors.md documents no code that does not exist, and none twice', async () => {
    const documented = await documentedCodes();
    assert.deepEqual(
      documented.filter((code) => !isErrorCode(code)),
      [],
    );
    assert.equal(new Set(documented).size, documented.length);
  });

  test('the documented status of each code is the registry status', async () => {
    const text = await readFile(errorsDoc, 'utf8');
    for (const match of text.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|/gm)) {
      const [, code = '', status = ''] = match;
      if (isErrorCode(code)) assert.equal(Number(status), errorRegistry[code].status, code);
    }
  });

  test("the documented OAuth error of each provider refusal is the registry's", async () => {
    const text = await readFile(errorsDoc, 'utf8');
    const refusals = errorCodes.filter(isProviderRefusalCode);
    assert.ok(refusals.length > 30, `expected the provider's refusals, found ${refusals.length}`);
    for (const code of refusals) {
      const row = new RegExp(`^\\|\\s*\`${code}\`\\s*\\|\\s*\\d{3}\\s*\\|\\s*\`([a-z_]+)\`:`, 'm');
      assert.equal(row.exec(text)?.[1], providerRefusal(code).error, code);
    }
  });

  test('a refusal audited under another code names one of the registry', () => {
    for (const code of errorCodes.filter(isProviderRefusalCode)) {
      const { oauth } = errorRegistry[code];
      if ('auditedAs' in oauth) assert.ok(isErrorCode(oauth.auditedAs), code);
    }
  });

  test('codes are snake_case and summaries are sentences', () => {
    for (const code of errorCodes) {
      assert.match(code, /^[a-z]+(?:_[a-z]+)*$/);
      assert.match(errorRegistry[code].summary, /^[A-Z].*\.$/);
    }
  });

  test('an error keeps its code, position and cause, and names no unknown code', () => {
    const cause = new Error('inner');
    const error = new SsogateError('expression_syntax', "expected ')'", { column: 7, cause });
    assert.equal(error.code, 'expression_syntax');
    assert.equal(error.status, 400);
    assert.equal(error.column, 7);
    assert.equal(error.cause, cause);
    const placed = error.inField('tokenParse', 2);
    assert.deepEqual([placed.field, placed.line, placed.column], ['tokenParse', 2, 7]);
    assert.equal(isErrorCode('toString'), false);
  });
});
