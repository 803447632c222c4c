import { signInAgainHref, toApiError } from './api-error';

export { ApiError, describeFailure } from './api-error';

/** What the gateway embedded in the page (src/features/admin-console/console-page.ts); empty when absent. */
function bootData(name: 'csrf-token' | 'public-url'): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/** The session's CSRF token, embedded in the page by the gateway. */
export function csrfToken(): string {
  return bootData('csrf-token');
}

/**
 * The gateway's configured public URL, where users and third-party servers
 * reach it; empty on a page the gateway did not serve (the Vite dev server).
 */
export function embeddedPublicUrl(): string {
  return bootData('public-url');
}

export interface CallOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/**
 * Calls the admin API with the session cookie; every change carries
 * X-CSRF-Token. A session that ended sends the browser to sign in again,
 * and one whose second factor is missing or too old to the factor page,
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
  const error = toApiError(response.status, payload);
  if (response.status === 401)
    window.location.assign(
      signInAgainHref(error, window.location.pathname + window.location.search),
    );
  throw error;
}

export { formatNumber, formatTime } from './i18n/catalogs';
