export {
  BINDING_COOKIE,
  HANDOFF_COOKIE,
  MAX_COOKIE_HEADER_LENGTH,
  MAX_COOKIES,
  SECURE_BINDING_COOKIE,
  SECURE_HANDOFF_COOKIE,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  clearCookie,
  cookieNames,
  parseCookieHeader,
  serializeCookie,
} from './cookies.js';
export type { ClearCookieOptions, CookieNames, CookieOptions } from './cookies.js';
export { MAX_RETURN_TO_LENGTH, safeReturnTo } from './return-to.js';
export { securityHeaders } from './security-headers.js';
export type { SecurityHeaderOptions } from './security-headers.js';
export { REFERENCE_ID_LENGTH, REFERENCE_ID_PATTERN, newReferenceId } from './reference-id.js';
