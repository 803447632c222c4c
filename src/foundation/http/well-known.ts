/** The discovery document of the gateway as an OpenID Provider (OpenID Connect Discovery 1.0 §4). */
export const discoveryPath = '/.well-known/openid-configuration';

/**
 * The gateway's own well-known URIs (RFC 8615): paths outside /_sso that
 * it serves itself on every setup, so that no upstream of the reverse proxy
 * (src/features/reverse-proxy/proxy-target.ts), one at `/` included, ever
 * answers them under the issuer's URL.
 */
export const gatewayWellKnownPaths: ReadonlySet<string> = new Set([discoveryPath]);
