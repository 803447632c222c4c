/** Shared assertions for the expression tests. */
import assert from 'node:assert/strict';
import { isSsogateError } from '../../errors/ssogate-error.js';
import type { SsogateError } from '../../errors/ssogate-error.js';
import type { ErrorCode } from '../../errors/registry.js';
import { createEvaluationContext } from '../context.js';
import { evaluate } from '../evaluate.js';
import type { JsonValue } from '../json-value.js';
import { parseExpression } from '../parser.js';

/** Runs `fn`, asserts it throws an SsogateError with `code` (and `column`), returns it. */
export function expectError(fn: () => unknown, code: ErrorCode, column?: number): SsogateError {
  try {
    fn();
  } catch (error: unknown) {
    assert.ok(isSsogateError(error), `expected SsogateError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (column !== undefined) {
      assert.equal(error.column, column, error.message);
    }
    return error;
  }
  assert.fail(`expected ${code} to be thrown`);
}

/** Parses `source` and evaluates it over `response`. */
export function run(source: string, response = ''): JsonValue {
  return evaluate(parseExpression(source), createEvaluationContext(response));
}
