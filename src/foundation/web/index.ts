export {
  BINDING_COOKIE,
  HANDOFF_COOKIE,
  SECURE_BINDING_COOKIE,
  SECURE_HANDOFF_COOKIE,
  clearCookie,
  cookieNames,
  parseCookieHeader,
  serializeCookie,
} from './cookies.js';
export { safeReturnTo } from './return-to.js';
export { securityHeaders } from './security-headers.js';
export { REFERENCE_ID_PATTERN, newReferenceId } from './reference-id.js';
