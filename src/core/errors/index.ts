export type { ErrorCode } from './registry.js';
export { errorCodes, errorRegistry, isErrorCode } from './registry.js';
export type { ErrorFacts } from './ssogate-error.js';
export { SsogateError, isSsogateError } from './ssogate-error.js';
export { SignInError } from './sign-in-error.js';
export { nearestName } from './nearest-name.js';
