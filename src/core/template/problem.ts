import type { ErrorCode } from '../errors/registry.js';
import { SsogateError } from '../errors/ssogate-error.js';

/**
 * A problem at a 1-based column of an administrator's input. With
 * exactOptionalPropertyTypes an absent field must be left out, not undefined.
 */
export function problemAt(
  code: ErrorCode,
  message: string,
  column: number,
  field: string | undefined,
): SsogateError {
  return new SsogateError(code, message, field === undefined ? { column } : { field, column });
}

/** Problems in reading order, so the console can list them left to right. */
export function byColumn(problems: readonly SsogateError[]): readonly SsogateError[] {
  return [...problems].sort((a, b) => (a.column ?? 0) - (b.column ?? 0));
}
