import type { ErrorCode } from './registry.js';
import { errorRegistry } from './registry.js';

/**
 * Where in an administrator's input a problem sits. `column` and `line` are
 * 1-based, counted in UTF-16 code units as an editor's cursor shows them.
 */
interface ErrorPosition {
  readonly field?: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * What an operator needs to tell one failure from another (an HTTP status,
 * a network error's code, a server's `error`), already masked: the audit
 * trail keeps them with a failed sign-in.
 */
export type ErrorFacts = Readonly<Record<string, string | number>>;

interface SsogateErrorOptions extends ErrorPosition {
  readonly cause?: unknown;
  readonly facts?: ErrorFacts;
}

/**
 * The one error type the core throws. `code` comes from the registry, so
 * `switch (error.code)` is exhaustive and never depends on message text.
 */
export class SsogateError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'SsogateError';
  readonly code: C;
  readonly field: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly facts: ErrorFacts | undefined;

  constructor(code: C, message: string, options: SsogateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.facts = options.facts;
    this.field = options.field;
    this.line = options.line;
    this.column = options.column;
  }

  get status(): number {
    return errorRegistry[this.code].status;
  }

  /**
   * A reason meant for the user, shown beside the code's plain sentence (a
   * third-party server's error_description); none unless a subclass has one.
   */
  get publicDetail(): string | undefined {
    return undefined;
  }

  /**
   * How long a refused client should wait, in whole seconds (the Retry-After
   * header); none unless a subclass says.
   */
  get retryAfterSeconds(): number | undefined {
    return undefined;
  }

  /** The same error, placed in a field (and optionally shifted by a line). */
  inField(field: string, line?: number): SsogateError<C> {
    return new SsogateError(this.code, this.message, {
      field,
      ...(line === undefined ? {} : { line }),
      ...(this.column === undefined ? {} : { column: this.column }),
      cause: this,
    });
  }
}

export function isSsogateError(value: unknown): value is SsogateError {
  return value instanceof SsogateError;
}
