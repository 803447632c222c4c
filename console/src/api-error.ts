import type { Problem } from './types.js';

/**
 * A failed admin API call: the coded error the API sent
 * (`{ error: { code, message, problems?, reference? } }`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly problems: readonly Problem[] = [],
    readonly reference?: string,
    /** The reason beside the code's sentence (a refused password's, say). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The coded error of a failed call's body; any other body still makes one, with its status. */
export function toApiError(status: number, payload: unknown): ApiError {
  const error = (payload as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  const code = typeof error.code === 'string' ? error.code : 'request_failed';
  const message =
    typeof error.message === 'string' ? error.message : `the server answered ${status}`;
  const problems = Array.isArray(error.problems) ? (error.problems as Problem[]) : [];
  const reference = typeof error.reference === 'string' ? error.reference : undefined;
  const detail = typeof error.detail === 'string' ? error.detail : undefined;
  return new ApiError(status, code, message, problems, reference, detail);
}

/** A message for any failure, with its code and reference when there are. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const reference = error.reference === undefined ? '' : ` (reference ${error.reference})`;
    const detail = error.detail === undefined ? '' : `: ${error.detail}`;
    return `${error.message}${detail} [${error.code}]${reference}`;
  }
  return error instanceof Error ? error.message : String(error);
}
