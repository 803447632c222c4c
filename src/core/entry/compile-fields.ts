import { SsogateError, isSsogateError } from '../errors/ssogate-error.js';
import type { Expression } from '../expression/index.js';
import { parseExpression } from '../expression/index.js';

/**
 * Collects the problems of one entry while its fields are compiled, so that
 * validation reports all of them at once instead of stopping at the first.
 */
export class ProblemList {
  readonly items: SsogateError[] = [];

  add(problem: SsogateError): void {
    this.items.push(problem);
  }

  addAll(problems: readonly SsogateError[]): void {
    // A loop, not push(...problems): hostile text can hold more problems than one call takes arguments.
    for (const problem of problems) this.items.push(problem);
  }

  field(
    field: string,
    message: string,
    code: 'field_invalid' | 'header_invalid' = 'field_invalid',
  ): void {
    this.items.push(new SsogateError(code, message, { field }));
  }
}

/**
 * Parses an expression field; a parse error becomes a problem placed in the
 * field, shifted to `line`/`column` when the expression sits inside a larger
 * text (the text form of userInfoParse).
 */
export function compileExpression(
  source: string,
  field: string,
  problems: ProblemList,
  offset?: { line: number; column: number },
): Expression | undefined {
  try {
    return parseExpression(source);
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    problems.add(
      new SsogateError(error.code, error.message, {
        field,
        ...(offset === undefined ? {} : { line: offset.line }),
        ...(error.column === undefined
          ? {}
          : { column: error.column + (offset === undefined ? 0 : offset.column - 1) }),
        cause: error,
      }),
    );
    return undefined;
  }
}

/** The raw input as a record, whatever was sent, for field-by-field checks. */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field's value; a blank optional field counts as absent. */
export function textField(
  record: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined {
  const value = Object.hasOwn(record, key) ? record[key] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
