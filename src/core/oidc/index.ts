export type { OidcDiscovery } from './discovery.js';
export { discoveryUrl, parseDiscovery, standInDiscovery } from './discovery.js';
export {
  defaultOidcScope,
  standardClaimsMapping,
  withDiscoveredTemplates,
} from './discovered-templates.js';
export type { Claims, IdTokenExpectations } from './id-token-claims.js';
export { checkIdTokenClaims, checkIssuerAndAudience } from './id-token-claims.js';
export type { OidcInput, UserInfoSource } from './oidc-input.js';
export { oidcInput, userInfoSources } from './oidc-input.js';
export { checkCallbackIssuer } from './callback-issuer.js';
export type { LogoutTarget } from './logout-token.js';
export { backchannelLogoutEvent, checkLogoutTokenClaims } from './logout-token.js';
