/**
 * The gateway's version, as package.json says (user-agent.test.ts keeps the
 * two equal): a constant, so that no file is read at run time from a place
 * that differs between build/ and dist/.
 */
export const ssogateVersion = '0.1.0';

/**
 * Sent on every outbound call that does not name its own: some servers refuse
 * a request without one (GitHub's API answers 403), and it tells a server's
 * administrators who is calling. An entry's `User-Agent` header replaces it.
 */
export const defaultUserAgent = `ssogate/${ssogateVersion}`;
