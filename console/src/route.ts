/**
 * Which page a path shows. Plain code, no DOM: navigation.ts follows the
 * browser's location, this only reads a path (and is tested under Node.js).
 */

/** The console's own pages live under this path; the gateway serves index.html for all. */
export const BASE = '/_sso/admin';

export type Route =
  | { readonly page: 'entries' }
  | { readonly page: 'new-entry' }
  | { readonly page: 'entry'; readonly id: string }
  | { readonly page: 'applications' }
  | { readonly page: 'new-application' }
  | { readonly page: 'application'; readonly id: string }
  | { readonly page: 'users' }
  | { readonly page: 'audit' }
  | { readonly page: 'tokens' }
  | { readonly page: 'password' }
  | { readonly page: 'unknown' };

export function routeOf(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (first === undefined || (first === 'entries' && second === undefined)) {
    return { page: 'entries' };
  }
  if (first === 'entries' && second === 'new' && parts.length === 2) return { page: 'new-entry' };
  if (first === 'entries' && second !== undefined && parts.length === 2) {
    const id = decoded(second);
    return id === undefined ? { page: 'unknown' } : { page: 'entry', id };
  }
  // The OpenID Provider's clients, under Single Sign-On (docs/openid-provider.md).
  if (first === 'applications' && parts.length === 1) return { page: 'applications' };
  if (first === 'applications' && second === 'new' && parts.length === 2) {
    return { page: 'new-application' };
  }
  if (first === 'applications' && second !== undefined && parts.length === 2) {
    const id = decoded(second);
    return id === undefined ? { page: 'unknown' } : { page: 'application', id };
  }
  if (
    parts.length === 1 &&
    (first === 'users' || first === 'audit' || first === 'tokens' || first === 'password')
  ) {
    return { page: first };
  }
  return { page: 'unknown' };
}

/** A percent-encoded path segment decoded, or undefined when it is malformed (`%E0`). */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
