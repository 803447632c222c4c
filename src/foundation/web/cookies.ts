/**
 * Cookie parsing and serialisation (RFC 6265), framework-free.
 *
 * The gateway reads only its own two cookies, so parsing is strict and small:
 * a malformed pair is skipped rather than "repaired", the first occurrence of a
 * name wins (RFC 6265 §5.4 orders longer paths first, so the first is the most
 * specific), and the work is capped so a hostile header costs little.
 */

/** Session cookie name over plain http (no prefix: __Host- requires Secure). */
const SESSION_COOKIE = 'ssogate_session';
/** Session cookie name over https: __Host- pins it to this host, Path=/ and Secure. */
const SECURE_SESSION_COOKIE = '__Host-ssogate_session';
/**
 * Session cookie name over https with SSOGATE_COOKIE_DOMAIN: __Host- forbids
 * a Domain attribute, so __Secure- (RFC 6265bis §4.1.3), which still makes
 * the browser refuse it from a page that is not https.
 */
const SECURE_DOMAIN_SESSION_COOKIE = '__Secure-ssogate_session';
/**
 * The console's and the admin API's session under SSOGATE_COOKIE_DOMAIN: the
 * auth host's own (host-only, __Host- over https), so the domain's session
 * cookie, which every host under the domain receives, never reaches them.
 */
const CONSOLE_COOKIE = 'ssogate_console';
const SECURE_CONSOLE_COOKIE = '__Host-ssogate_console';
/** Browser-binding cookie of a pending sign-in (docs/design.md#single-use-and-browser-binding). */
export const BINDING_COOKIE = 'ssogate_binding';
export const SECURE_BINDING_COOKIE = '__Host-ssogate_binding';
/** The nonce binding a handoff of a sign-in to the browser on the host it is for (sign-in/handoff.ts). */
export const HANDOFF_COOKIE = 'ssogate_handoff';
export const SECURE_HANDOFF_COOKIE = '__Host-ssogate_handoff';

interface CookieNames {
  readonly session: string;
  readonly binding: string;
  readonly console: string;
}

/**
 * The gateway's cookie names; `secure` is true when the public URL is https,
 * `domainWide` when the session cookie is set for a domain
 * (SSOGATE_COOKIE_DOMAIN). The binding cookie is always the auth host's own.
 */
export function cookieNames(secure: boolean, domainWide = false): CookieNames {
  if (!secure) return { session: SESSION_COOKIE, binding: BINDING_COOKIE, console: CONSOLE_COOKIE };
  return {
    session: domainWide ? SECURE_DOMAIN_SESSION_COOKIE : SECURE_SESSION_COOKIE,
    binding: SECURE_BINDING_COOKIE,
    console: SECURE_CONSOLE_COOKIE,
  };
}

const MAX_COOKIES = 50;
const MAX_COOKIE_HEADER_LENGTH = 8 * 1024;
/** Browsers keep at least 4096 bytes per cookie (RFC 6265 §6.1); stay within it. */
const MAX_SET_COOKIE_LENGTH = 4096;

// RFC 9110 §5.6.2 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6265 §4.1.1 cookie-octet: visible ASCII minus DQUOTE, comma, semicolon, backslash.
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const PATH_VALUE = /^\/[\x20-\x3A\x3C-\x7E]*$/;
const DOMAIN_VALUE = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;

/**
 * All cookies of a Cookie header. Malformed pairs are ignored; values are
 * percent-decoded only when the decoding is valid, otherwise kept as sent.
 * Only the first 8 KiB and the first 50 cookies are read.
 */
export function parseCookieHeader(header: string | undefined): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  if (header === undefined || header === '') return cookies;
  let text = header;
  if (text.length > MAX_COOKIE_HEADER_LENGTH) {
    // Drop the pair the cut falls into: a truncated value is not the value sent.
    const cut = text.slice(0, MAX_COOKIE_HEADER_LENGTH);
    const atBoundary = text[MAX_COOKIE_HEADER_LENGTH] === ';';
    text = atBoundary ? cut : cut.slice(0, Math.max(0, cut.lastIndexOf(';')));
  }
  let seen = 0;
  for (const part of text.split(';')) {
    if (seen >= MAX_COOKIES) break;
    const pair = parsePair(part);
    if (pair === undefined) continue;
    seen += 1;
    if (!cookies.has(pair[0])) cookies.set(pair[0], pair[1]);
  }
  return cookies;
}

function parsePair(part: string): [string, string] | undefined {
  const eq = part.indexOf('=');
  if (eq === -1) return undefined;
  const name = trimOws(part.slice(0, eq));
  let value = trimOws(part.slice(eq + 1));
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!TOKEN.test(name) || !COOKIE_VALUE.test(value)) return undefined;
  return [name, decodeValue(value)];
}

function trimOws(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}

function decodeValue(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not valid percent-encoding: the raw value is what the browser holds.
    return value;
  }
}

interface CookieOptions {
  readonly maxAgeSeconds?: number;
  readonly expires?: Date;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: 'Lax' | 'Strict';
  /** Defaults to '/'. */
  readonly path?: string;
  /**
   * A Domain attribute (a name without its leading dot): the cookie then
   * reaches every host under it. Absent: the cookie is host-only.
   */
  readonly domain?: string;
}

/**
 * A Set-Cookie header value. Throws on a name or value a browser would
 * misread (rather than encoding it: the gateway's values are base64url and a
 * surprise here is a bug), and on a __Host-/__Secure- name without the
 * attributes its prefix demands (RFC 6265bis §4.1.3), which browsers would drop.
 * Sets Domain only when asked: otherwise the cookie stays on the gateway's
 * own host.
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!TOKEN.test(name)) throw new TypeError('cookie name has invalid characters');
  if (!COOKIE_VALUE.test(value)) throw new TypeError(`cookie ${name} value has invalid characters`);
  const path = options.path ?? '/';
  if (!PATH_VALUE.test(path)) throw new TypeError(`cookie ${name} path is invalid`);
  const lower = name.toLowerCase();
  if ((lower.startsWith('__secure-') || lower.startsWith('__host-')) && !options.secure) {
    throw new TypeError(`cookie ${name} needs Secure for its prefix`);
  }
  if (lower.startsWith('__host-') && (path !== '/' || options.domain !== undefined)) {
    throw new TypeError(`cookie ${name} needs Path=/ and no Domain for its prefix`);
  }
  if (options.domain !== undefined && !DOMAIN_VALUE.test(options.domain)) {
    throw new TypeError(`cookie ${name} domain is invalid`);
  }
  const parts = [`${name}=${value}`];
  if (options.maxAgeSeconds !== undefined) {
    if (!Number.isSafeInteger(options.maxAgeSeconds) || options.maxAgeSeconds < 0) {
      throw new RangeError(`cookie ${name} Max-Age must be a non-negative integer`);
    }
    parts.push(`Max-Age=${options.maxAgeSeconds}`);
  }
  if (options.expires !== undefined) {
    if (Number.isNaN(options.expires.getTime()))
      throw new RangeError(`cookie ${name} Expires is invalid`);
    parts.push(`Expires=${options.expires.toUTCString()}`);
  }
  if (options.domain !== undefined) parts.push(`Domain=${options.domain}`);
  parts.push(`Path=${path}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite}`);
  const header = parts.join('; ');
  if (header.length > MAX_SET_COOKIE_LENGTH) throw new RangeError(`cookie ${name} is too long`);
  return header;
}

interface ClearCookieOptions {
  readonly secure: boolean;
  readonly sameSite: 'Lax' | 'Strict';
  readonly path?: string;
  readonly domain?: string;
}

/**
 * A Set-Cookie value that deletes the cookie: both Max-Age=0 and a past
 * Expires, so old clients that ignore Max-Age delete it too. Name, path and
 * prefix attributes must match the cookie being replaced.
 */
export function clearCookie(name: string, options: ClearCookieOptions): string {
  return serializeCookie(name, '', {
    maxAgeSeconds: 0,
    expires: new Date(0),
    httpOnly: true,
    secure: options.secure,
    sameSite: options.sameSite,
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.domain === undefined ? {} : { domain: options.domain }),
  });
}
