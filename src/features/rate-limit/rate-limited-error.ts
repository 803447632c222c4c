import { SsogateError } from '../../core/index.js';

/** rate_limited, with how long the client should wait (the Retry-After header). */
export class RateLimitedError extends SsogateError<'rate_limited'> {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super('rate_limited', message);
  }

  /** Whole seconds, at least 1 (RFC 9110 §10.2.3: a non-negative integer of seconds). */
  override get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}
