import type { Gateway } from '../../foundation/http/gateway.js';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import { HANDOFF_COOKIE, SECURE_HANDOFF_COOKIE, cookieNames } from '../../foundation/web/index.js';
import { identityHeaders } from '../forward-auth/identity-headers.js';
import type { ForwardContext } from './proxy-headers.js';

/** What the headers for one proxied request need to know. */
export function forwardContext(
  gateway: Gateway,
  upstream: Upstream,
  user: UserRecord,
  upgrade: boolean,
): ForwardContext {
  const publicUrl = parsedUrl(gateway, gateway.config.publicUrl);
  return {
    upstreamHost: parsedUrl(gateway, upstream.origin).host,
    publicProto: publicUrl.protocol.slice(0, -1),
    publicHost: upstream.host ?? publicUrl.host,
    gatewayCookies,
    identity: identityHeaders(user),
    upgrade,
    lastConnection: gateway.memory.lastConnection,
  };
}

/**
 * The host access rules see for a proxied request: the public URL's. The
 * gateway serves one site; the client's Host header is not trusted to pick
 * the rules.
 */
function publicHost(gateway: Gateway): string {
  return parsedUrl(gateway, gateway.config.publicUrl).host;
}

/**
 * The host access rules see for a request proxied to `upstream`: a
 * host-keyed upstream's own host, from the configuration, else the public
 * URL's. Never the client's Host header itself, so a made-up Host cannot
 * reach an application without its host's rules.
 */
export function rulesHost(gateway: Gateway, upstream: Upstream): string {
  return upstream.host ?? publicHost(gateway);
}

/** A configured URL (the public URL, an upstream origin), parsed once per gateway. */
export function parsedUrl(gateway: Gateway, configured: string): URL {
  const parsedUrls = gateway.memory.configuredUrls;
  let url = parsedUrls.get(configured);
  if (url === undefined) {
    url = new URL(configured);
    parsedUrls.set(configured, url);
  }
  return url;
}

// Every spelling of every cookie, whatever this gateway's scheme and cookie
// domain: an old cookie of another spelling is the gateway's too.
export const gatewayCookies: ReadonlySet<string> = new Set([
  ...[true, false].flatMap((secure) =>
    [true, false].flatMap((domainWide) => {
      const names = cookieNames(secure, domainWide);
      return [names.session, names.binding, names.console];
    }),
  ),
  HANDOFF_COOKIE,
  SECURE_HANDOFF_COOKIE,
]);
