export type { OidcDiscovery } from './discovery.js';
export { discoveryUrl, parseDiscovery, standInDiscovery } from './discovery.js';
export { withDiscoveredTemplates } from './discovered-templates.js';
export type { Claims } from './id-token-claims.js';
export { checkIdTokenClaims, checkIssuerAndAudience } from './id-token-claims.js';
export type { UserInfoSource } from './oidc-input.js';
export { oidcInput } from './oidc-input.js';
export { checkCallbackIssuer } from './callback-issuer.js';
export { checkLogoutTokenClaims } from './logout-token.js';
