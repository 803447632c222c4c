export type { ProviderRefusal, ProviderRefusalCode } from './refusals.js';
export { providerRefusal } from './refusals.js';
export type { AuthorizationParameters } from './authorization-request.js';
export {
  authorizationParameters,
  authorizationRefusal,
  promptsOf,
} from './authorization-request.js';
export type { GrantRequest, TokenParameters } from './token-request.js';
export {
  clientCredentials,
  clientSecretHolds,
  codeExchangeRefusal,
  grantRequest,
  tokenParameters,
} from './token-request.js';
export { isRedirectUriOf } from './redirect-uris.js';
export { acrClaim, acrRequestOf, acrSatisfiedBy, supportedAcrValues } from './acr.js';
