/**
 * The return-to path of a sign-in (docs/design.md#return-to).
 *
 * A return-to value comes from a query string, so it is attacker-chosen. The
 * gateway only ever redirects to a same-origin path: anything a browser or a
 * URL parser could read as another host (`//host`, `/\host`, a scheme, a tab
 * or newline browsers strip) becomes `/`. Checks run on the raw text, on the
 * WHATWG-normalised form (what the Location header will carry) and on its
 * percent-decoded form (what a router or an upstream app may act on).
 */

const MAX_RETURN_TO_LENGTH = 2048;

const DUMMY_BASE = 'http://gateway.invalid';
const DUMMY_ORIGIN = new URL(DUMMY_BASE).origin;

// Controls (incl. tab, CR, LF, NUL), Unicode spaces and invisible format
// characters (zero-width, bidi): browsers strip or mis-render them, which is
// how `/\t/evil.com` turns into `//evil.com`. A backslash is a slash to browsers.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;

/**
 * `raw` as a safe same-origin path with its query (the fragment is dropped),
 * or `/`. Never a path under `/_sso/` except the admin console, so a sign-in
 * never lands on the callback, logout or another sign-in.
 *
 * `/%2F%2Fevil.com` is rejected: as a Location it is a harmless same-origin
 * path, but a router or upstream that decodes before redirecting would see
 * `//evil.com`. Refusing costs nothing a real page needs.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string') return '/';
  if (raw.length === 0 || raw.length > MAX_RETURN_TO_LENGTH) return '/';
  if (!raw.startsWith('/') || startsLikeAuthority(raw) || UNSAFE_CHARACTER.test(raw)) return '/';

  let url: URL;
  try {
    url = new URL(raw, DUMMY_BASE);
  } catch {
    return '/';
  }
  if (url.origin !== DUMMY_ORIGIN || url.username !== '' || url.password !== '') return '/';

  // Dot segments can produce `//` after normalisation (`/.//evil.com`).
  const result = url.pathname + url.search;
  if (
    result.length > MAX_RETURN_TO_LENGTH ||
    !result.startsWith('/') ||
    startsLikeAuthority(result)
  ) {
    return '/';
  }

  const decoded = decodePath(url.pathname);
  if (decoded === undefined || /\p{Cc}/u.test(decoded)) return '/';
  if (startsLikeAuthority(decoded.replace(/[\p{Cf}\p{Z}\s]/gu, ''))) return '/';
  if (isReservedPath(url.pathname) || isReservedPath(normalisePath(decoded))) return '/';
  return result;
}

function startsLikeAuthority(path: string): boolean {
  return path.startsWith('//') || path.startsWith('/\\');
}

function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

function normalisePath(path: string): string {
  try {
    return new URL(path, DUMMY_BASE).pathname;
  } catch {
    return path;
  }
}

/**
 * Under `/_sso` (any case) but not the admin console, nor the forward-auth
 * return hop or the handoff of a sign-in to another host, which check their
 * own target against the listed hosts, nor the OpenID Provider's
 * authorization endpoint, which a sign-in returns to so that it issues the
 * application its code (it checks its client and redirect URI itself).
 */
function isReservedPath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  if (path !== '/_sso' && !path.startsWith('/_sso/')) return false;
  if (path === '/_sso/auth/return' || path === '/_sso/handoff') return false;
  if (pathname === '/_sso/oidc/authorize') return false;
  return !(path === '/_sso/admin' || path.startsWith('/_sso/admin/'));
}
