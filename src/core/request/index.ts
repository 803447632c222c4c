export type { AuthorizationRequest } from './authorization-request.js';
export { buildAuthorizationRequest } from './authorization-request.js';
export { callbackUrl, signedOutUrl } from './gateway-urls.js';
export type { LogoutRequest } from './logout-request.js';
export { buildLogoutRequest } from './logout-request.js';
export type { OutboundRequest, ThirdPartyResponse } from './outbound-request.js';
export { maxResponseBytes } from './outbound-request.js';
export { createPkcePair, pkceChallenge } from './pkce.js';
export type { RandomSource } from './random.js';
export { isRandomToken, randomToken } from './random.js';
export { buildTokenRequest } from './token-request.js';
export type { ResponseOptions } from './token-response.js';
export { processTokenResponse } from './token-response.js';
export { buildRefreshRequest, processRefreshResponse } from './refresh-request.js';
export { buildUserInfoRequest } from './userinfo-request.js';
export type { UserInfoAnswer, UserInfoOptions, UserInfoReport } from './userinfo-response.js';
export { readUserInfo } from './userinfo-response.js';
export { isVisibleAscii } from './visible-ascii.js';
export type { StepValues } from './shaped-calls.js';
export {
  buildAppTokenRequest,
  buildUserInfoCallRequest,
  processAppTokenResponse,
  processUserInfoCallResponse,
} from './shaped-calls.js';
