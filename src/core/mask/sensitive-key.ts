/**
 * Which keys name a value that must never be shown: tokens, secrets,
 * passwords, authorization codes, state, assertions, tickets.
 *
 * A plain /token|secret|password|code|state|assertion|ticket/i would also hide
 * `errcode` and `error_code`, the very values an administrator needs to see
 * when a server answers `{"errcode":40029}`. So keys are compared in a
 * normalised form (lower case, letters and digits only) against substrings
 * that are always sensitive, and keys ending in "code" are sensitive unless
 * they are one of the well-known diagnostic or descriptive codes.
 */

const ALWAYS =
  /token|secret|passw(?:or)?d|pwd|passphrase|assertion|ticket|credential|cookie|authorization|apikey|privatekey|session|verifier|state/;

/** Keys that contain a sensitive word but carry no secret (OAuth2 metadata). */
const NOT_SENSITIVE: ReadonlySet<string> = new Set([
  'tokentype',
  'tokenurl',
  'tokenparse',
  'tokenendpoint',
  'tokenendpointauthmethod',
  'authorizationendpoint',
  'appsecretset',
]);

/** Keys ending in "code" that are diagnostic or descriptive, not credentials. */
const NOT_SECRET_CODES: ReadonlySet<string> = new Set([
  'errcode',
  'errorcode',
  'retcode',
  'returncode',
  'rescode',
  'resultcode',
  'responsecode',
  'statuscode',
  'httpcode',
  'httpstatuscode',
  'exitcode',
  'reasoncode',
  'zipcode',
  'postcode',
  'postalcode',
  'countrycode',
  'areacode',
  'langcode',
  'languagecode',
  'localecode',
  'currencycode',
  'regioncode',
  'deptcode',
  'departmentcode',
  'opcode',
  'barcode',
  'unicode',
  'encode',
  'decode',
]);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True when a JSON key, form field or header name holds a credential. */
export function isSensitiveKey(key: string): boolean {
  const name = normalise(key);
  if (name === '' || NOT_SENSITIVE.has(name)) {
    return false;
  }
  if (ALWAYS.test(name)) {
    return true;
  }
  return name.endsWith('code') && !NOT_SECRET_CODES.has(name);
}
