import { activeLanguage, messagesFor } from './i18n/catalogs.js';
import type { Language } from './i18n/catalogs.js';
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

/**
 * Where a 401 sends the console's page, to come back to `here` after: the
 * factor page when the session lacks the second factor administrators must
 * give (SSOGATE_ADMIN_SECOND_FACTOR; it asks for a code, or enrols one on
 * first need), or the sign-in when the session ended.
 */
export function signInAgainHref(error: ApiError, here: string): string {
  const back = encodeURIComponent(here);
  return error.code === 'second_factor_required'
    ? `/_sso/factor?return_to=${back}`
    : `/_sso/login?return_to=${back}`;
}

/**
 * A message for any failure, with its code and reference when there are.
 * The admin API's messages are English: in English they are shown as sent
 * (they can name the thing at fault); in another language the catalog's
 * sentence for a code it knows replaces them, and the code stays as sent.
 */
export function describeFailure(error: unknown, language: Language = activeLanguage()): string {
  if (error instanceof ApiError) {
    const t = messagesFor(language);
    const reference =
      error.reference === undefined ? '' : ` (${t.failure.reference(error.reference)})`;
    const detail = error.detail === undefined ? '' : `: ${error.detail}`;
    const own: Readonly<Record<string, string>> = t.errors;
    const sentence =
      language !== 'en' && Object.hasOwn(own, error.code) ? own[error.code] : error.message;
    return `${sentence ?? error.message}${detail} [${error.code}]${reference}`;
  }
  return error instanceof Error ? error.message : String(error);
}
