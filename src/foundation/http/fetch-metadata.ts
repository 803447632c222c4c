import type { IncomingHttpHeaders } from 'node:http';

/**
 * Fetch Metadata: a browser says where a request comes from. Only the
 * gateway's own pages post its forms (sign-out, consent); a browser that
 * sends no such header is held to the form token alone. (Origin cannot serve
 * here: under the pages' Referrer-Policy: no-referrer a same-origin form
 * posts "null".)
 */
export function fromAnotherSite(request: { readonly headers: IncomingHttpHeaders }): boolean {
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
