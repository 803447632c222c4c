import type { Upstream } from './proxy-settings.js';
import { underDomain } from './cookie-domain.js';
import { hostAllowed, normaliseHost, withoutPort } from './proxy-settings.js';

/**
 * The hosts the gateway serves or vouches for (docs/proxy.md#many-hosts):
 * the public URL's host, where sign-in, the console and the admin API live
 * (the auth host); the hosts of host-keyed upstreams, which the gateway
 * proxies itself; and SSOGATE_FORWARD_AUTH_HOSTS, which a proxy in front
 * protects with forward-auth. Return URLs, the handoff of a sign-in to
 * another host and the console's own origin all read this one list.
 */
export interface ServedHosts {
  /** The public URL's host, normalised (normaliseHost). */
  readonly auth: string;
  /** Every other listed host or `*.domain` wildcard, normalised. */
  readonly others: readonly string[];
  /**
   * Whether any listed host is not the auth host: then each host gets its
   * own session by a handoff from the auth host, and the console and admin
   * API answer on the auth host only; always true with a cookie domain,
   * whose cookie reaches hosts the gateway does not list. False keeps the
   * single-host layout.
   */
  readonly several: boolean;
  /**
   * SSOGATE_COOKIE_DOMAIN, without its dots (`corp.example`): the session
   * cookie is set for it, every listed host is under it (cookie-domain.ts),
   * and a browser signed in on one host is signed in on all of them, with
   * no handoff. Undefined: each host's session is its own, by a handoff.
   */
  readonly cookieDomain: string | undefined;
}

export function servedHosts(
  publicUrl: string,
  upstreams: readonly Upstream[],
  forwardAuthHosts: readonly string[],
  cookieDomain?: string,
): ServedHosts {
  const auth = normaliseHost(new URL(publicUrl).host);
  const others = new Set<string>();
  for (const upstream of upstreams) if (upstream.host !== undefined) others.add(upstream.host);
  for (const host of forwardAuthHosts) others.add(normaliseHost(host));
  others.delete(auth);
  const authName = withoutPort(auth);
  return {
    auth,
    others: [...others],
    several:
      cookieDomain !== undefined || [...others].some((host) => withoutPort(host) !== authName),
    cookieDomain,
  };
}

/** Whether `host` (as a browser sends it) is the auth host or a listed one. */
export function hostListed(hosts: ServedHosts, host: string): boolean {
  const wanted = normaliseHost(host);
  return wanted === hosts.auth || hostAllowed(hosts.others, wanted);
}

/**
 * The listed host that a request's Host header `host` names but for its
 * port (`app1.localhost` listed, `app1.localhost:8080` asked), if any. Hosts
 * are compared with their port, so such a request is served as an unlisted
 * host would be (docs/proxy.md#many-hosts): the operator is told, since its
 * sign-in otherwise ends in a puzzling `state_invalid`.
 */
export function listedButForPort(hosts: ServedHosts, host: string | undefined): string | undefined {
  if (host === undefined || hosts.others.length === 0) return undefined;
  const wanted = normaliseHost(host);
  if (wanted === hosts.auth || hostAllowed(hosts.others, wanted)) return undefined;
  const name = withoutPort(wanted);
  return hosts.others.find((listed) => hostAllowed([withoutPort(listed)], name));
}

/**
 * Whether `host` is listed and does not share the auth host's cookies (its
 * name differs, not only its port): one a sign-in is handed to.
 */
export function applicationHost(hosts: ServedHosts, host: string): boolean {
  const wanted = normaliseHost(host);
  return withoutPort(wanted) !== withoutPort(hosts.auth) && hostAllowed(hosts.others, wanted);
}

/**
 * Whether a request whose Host header is `host` reaches the auth host (its
 * name; the port is the proxy's business). With one host only (no other
 * listed), every request does, whatever its Host, as before hosts could be
 * listed.
 */
export function onAuthHost(hosts: ServedHosts, host: string | undefined): boolean {
  return (
    !hosts.several ||
    (host !== undefined && withoutPort(normaliseHost(host)) === withoutPort(hosts.auth))
  );
}

/**
 * The value of a session's host (SessionRecord.host) that binds it to a
 * cookie domain rather than one host: the domain with a leading dot, as
 * RFC 2109 wrote a Domain attribute, which no host name starts with.
 */
export function domainBinding(domain: string): string {
  return `.${domain}`;
}

/**
 * Whether a session bound to `boundTo` may be used by a request for
 * `requestHost` (docs/design.md#one-sign-in-many-hosts). A session bound to
 * a cookie domain (domainBinding) serves every host under it while the
 * gateway sets its cookie for that domain, and nothing else: not another
 * domain, not a request that names no host. A host's session
 * serves the host it was handed to only, compared by name as the browser
 * keeps cookies (RFC 6265 §8.5). A sign-in's own session (`boundTo`
 * undefined) serves the auth host and any host that is no application host
 * (a proxy in front may name the gateway itself), never an application
 * host, which has sessions of its own. So a cookie replayed with another
 * Host (or X-Forwarded-Host) is no session there. With one host only, any
 * Host, as before hosts could be listed.
 */
export function sessionServesHost(
  hosts: ServedHosts,
  boundTo: string | undefined,
  requestHost: string | undefined,
): boolean {
  if (boundTo?.startsWith('.') === true)
    return (
      requestHost !== undefined &&
      hosts.cookieDomain !== undefined &&
      boundTo === domainBinding(hosts.cookieDomain) &&
      underDomain(withoutPort(normaliseHost(requestHost)), hosts.cookieDomain)
    );
  if (!hosts.several) return true;
  if (boundTo === undefined)
    return requestHost === undefined || !applicationHost(hosts, requestHost);
  return (
    requestHost !== undefined &&
    withoutPort(normaliseHost(requestHost)) === withoutPort(normaliseHost(boundTo))
  );
}
