import { matchPath, targetUrl, underPrefix } from '../access-rules/access-rules.js';
import type { Upstream } from '../config/proxy-settings.js';

export interface ProxyTarget {
  /** What is sent upstream: the path with dot segments resolved, escapes kept, and the query. */
  readonly path: string;
  /** The decoded, normalised path that prefixes and rules are matched against. */
  readonly matchPath: string;
  /** The upstream of the longest matching prefix, if any. */
  readonly upstream: Upstream | undefined;
}

/** Where a request target goes; undefined when it cannot be read. */
export function proxyTarget(
  upstreams: readonly Upstream[],
  target: string,
): ProxyTarget | undefined {
  const url = targetUrl(target);
  const path = matchPath(target);
  if (url === undefined || path === undefined) return undefined;
  // Upstreams are sorted longest prefix first, so the first match wins.
  const upstream = upstreams.find((candidate) => underPrefix(path, candidate.prefix));
  return { path: url.pathname + url.search, matchPath: path, upstream };
}
