import { percentEncode } from '../template/index.js';

/**
 * Adds parameters to a rendered URL without re-serialising what is already
 * there: `URL.searchParams` would rewrite the administrator's literal query
 * with form encoding, so the text is extended instead.
 */
export function appendQuery(
  url: string,
  parameters: ReadonlyArray<readonly [string, string]>,
): string {
  if (parameters.length === 0) return url;
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const query = parameters
    .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
    .join('&');
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${query}${fragment}`;
}
