import { underPrefix } from '../access-rules/access-rules.js';
import type { RefusedTarget } from '../access-rules/request-path.js';
import { normaliseTarget } from '../access-rules/request-path.js';
import type { Upstream } from '../config/proxy-settings.js';

interface ProxyTarget {
  /**
   * What is sent upstream: the path the rules judged, escaped again where it
   * must be (access-rules/request-path.ts), and the query as it came.
   */
  readonly path: string;
  /** The decoded, normalised path that prefixes and rules are matched against. */
  readonly matchPath: string;
  /** The upstream of the longest matching prefix, if any. */
  readonly upstream: Upstream | undefined;
}

/** Where a request target goes, or why it is refused (a coded 400). */
export function proxyTarget(
  upstreams: readonly Upstream[],
  target: string,
): ProxyTarget | RefusedTarget {
  const normalised = normaliseTarget(target);
  if ('refused' in normalised) return normalised;
  const { path } = normalised;
  // Upstreams are sorted longest prefix first, so the first match wins.
  const upstream = upstreams.find((candidate) => underPrefix(path, candidate.prefix));
  return { path: normalised.wirePath + normalised.search, matchPath: path, upstream };
}
