import type { ErrorCode } from '../errors/registry.js';
import type { ErrorFacts } from '../errors/ssogate-error.js';
import { SsogateError } from '../errors/ssogate-error.js';

/**
 * A problem at a 1-based column of an administrator's input. With
 * exactOptionalPropertyTypes an absent field must be left out, not undefined.
 * `facts` are the message's values (a placeholder, the allowed ones), so a
 * reader can say the same in another language from the code and them.
 */
export function problemAt(
  code: ErrorCode,
  message: string,
  column: number,
  field: string | undefined,
  facts?: ErrorFacts,
): SsogateError {
  return new SsogateError(code, message, {
    column,
    ...(field === undefined ? {} : { field }),
    ...(facts === undefined ? {} : { facts }),
  });
}

/** Problems in reading order, so the console can list them left to right. */
export function byColumn(problems: readonly SsogateError[]): readonly SsogateError[] {
  return [...problems].sort((a, b) => (a.column ?? 0) - (b.column ?? 0));
}
