/**
 * Response headers for every gateway page.
 *
 * Pages carry no script and no inline style, so the policy can deny
 * everything except the gateway's own stylesheet, data: images and forms
 * posting to the gateway itself.
 */

interface SecurityHeaderOptions {
  /** The public URL is https: adds HSTS (browsers ignore it over http anyway). */
  readonly https: boolean;
  /**
   * Extra origins a form on this page may end up at. Browsers apply
   * form-action to every redirect that follows a form submission (Chrome,
   * Firefox, and WebKit lately; w3c/webappsec-csp#8), so the portal's
   * sign-out form, whose POST /_sso/logout may redirect to an entry's
   * third-party logoutUrl, needs that URL's origin here or the redirect is
   * blocked. Each must be an http(s) origin such as `https://idp.example.com`.
   */
  readonly formActionOrigins?: readonly string[];
  /**
   * The nonce of the page's one inline script, where a page needs one (the
   * OpenID Provider's form_post answer submits its form): only a script
   * carrying it runs.
   */
  readonly scriptNonce?: string;
  /**
   * The origins the page may load in frames: the signed-out page's hidden
   * frames of the clients' front-channel logout URIs (OpenID Connect
   * Front-Channel Logout 1.0 §2); none by default.
   */
  readonly frameOrigins?: readonly string[];
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const formAction = ["'self'", ...(options.formActionOrigins ?? []).map(checkedOrigin)];
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': [
      "default-src 'none'",
      "style-src 'self'",
      ...(options.scriptNonce === undefined
        ? []
        : [`script-src 'nonce-${checkedNonce(options.scriptNonce)}'`]),
      "img-src 'self' data:",
      ...(options.frameOrigins === undefined || options.frameOrigins.length === 0
        ? []
        : [`frame-src ${[...new Set(options.frameOrigins.map(checkedOrigin))].join(' ')}`]),
      `form-action ${[...new Set(formAction)].join(' ')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  };
  if (options.https) headers['Strict-Transport-Security'] = 'max-age=31536000';
  return headers;
}

/** A nonce goes into a header and a page: base64url only, long enough not to be guessed. */
function checkedNonce(value: string): string {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(value)) throw new TypeError('a script nonce must be base64url');
  return value;
}

/** An origin goes into a header: only a parsed, serialised http(s) origin may. */
function checkedOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError('form-action origin is not a URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value) {
    throw new TypeError('form-action origin must be a bare http(s) origin');
  }
  return url.origin;
}
