import type { ErrorCode } from './registry.js';
import type { ErrorFacts } from './ssogate-error.js';
import { SsogateError } from './ssogate-error.js';

/**
 * A failed sign-in step. `message` is for the log (already masked); the page
 * shows the code's plain sentence, plus `publicDetail` when the third-party
 * server gave a reason meant for the user (its error_description).
 */
export class SignInError extends SsogateError {
  readonly entryId: string | null;
  readonly userId: string | null;
  readonly #publicDetail: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      entryId?: string | null;
      userId?: string | null;
      publicDetail?: string;
      cause?: unknown;
      /** The masked cause, kept in the audit trail (docs/errors.md#finding-a-failure). */
      facts?: ErrorFacts;
    } = {},
  ) {
    super(code, message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.facts === undefined ? {} : { facts: options.facts }),
    });
    this.entryId = options.entryId ?? null;
    this.userId = options.userId ?? null;
    this.#publicDetail = options.publicDetail;
  }

  override get publicDetail(): string | undefined {
    return this.#publicDetail;
  }
}
