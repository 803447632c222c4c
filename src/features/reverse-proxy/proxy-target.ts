import { underPrefix } from '../access-rules/access-rules.js';
import type { RefusedTarget } from '../access-rules/request-path.js';
import { normaliseTarget } from '../access-rules/request-path.js';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import { gatewayWellKnownPaths } from '../../foundation/http/well-known.js';

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

/**
 * Where a request target goes, or why it is refused (a coded 400). `host`
 * is the request's Host header: a host with upstreams of its own
 * (`wiki.corp.example=URL`) is served by those only, the longest matching
 * prefix winning; any other host by the path-only upstreams. The gateway's
 * own well-known URIs go to no upstream.
 */
export function proxyTarget(
  upstreams: readonly Upstream[],
  target: string,
  host: string | undefined,
): ProxyTarget | RefusedTarget {
  const normalised = normaliseTarget(target);
  if ('refused' in normalised) return normalised;
  const { path } = normalised;
  // An upstream at `/` would otherwise answer a relying party's discovery
  // fetch with a 401, or a browser with the application's page.
  const upstream = gatewayWellKnownPaths.has(path) ? undefined : upstreamFor(upstreams, host, path);
  return { path: normalised.wirePath + normalised.search, matchPath: path, upstream };
}

/**
 * One pass, nothing allocated: upstreams come host-keyed first, then
 * path-only, each group longest prefix first (proxy-settings.ts), so the
 * first match wins, and by the time the path-only ones are reached it is
 * known whether the host had upstreams of its own. The Host header is only
 * read when there are host-keyed upstreams.
 */
function upstreamFor(
  upstreams: readonly Upstream[],
  host: string | undefined,
  path: string,
): Upstream | undefined {
  let wanted: string | undefined;
  let hostHasOwn = false;
  for (const candidate of upstreams) {
    if (candidate.host !== undefined) {
      wanted ??= host === undefined ? '' : normaliseHost(host);
      if (candidate.host !== wanted) continue;
      hostHasOwn = true;
    } else if (hostHasOwn) {
      return undefined;
    }
    if (underPrefix(path, candidate.prefix)) return candidate;
  }
  return undefined;
}
