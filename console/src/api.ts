import type { Problem } from './types';

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
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The session's CSRF token, embedded in the page by the gateway. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export interface CallOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/**
 * Calls the admin API with the session cookie; every change carries
 * X-CSRF-Token. A session that ended sends the browser to sign in again,
 * back to the page it was on.
 */
export async function api<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/_sso/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.ok) return payload as T;
  if (response.status === 401) {
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/_sso/login?return_to=${encodeURIComponent(here)}`);
  }
  throw toApiError(response.status, payload);
}

function toApiError(status: number, payload: unknown): ApiError {
  const error = (payload as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  const code = typeof error.code === 'string' ? error.code : 'request_failed';
  const message =
    typeof error.message === 'string' ? error.message : `the server answered ${status}`;
  const problems = Array.isArray(error.problems) ? (error.problems as Problem[]) : [];
  const reference = typeof error.reference === 'string' ? error.reference : undefined;
  return new ApiError(status, code, message, problems, reference);
}

/** A message for any failure, with its code and reference when there are. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const reference = error.reference === undefined ? '' : ` (reference ${error.reference})`;
    return `${error.message} [${error.code}]${reference}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** `2024-05-01T12:00:00.000Z` as the reader's local date and time. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
