/**
 * How long what the OpenID Provider issues lasts
 * (docs/openid-provider.md#lifetimes).
 */

/** An authorization code: single use, and short (RFC 6749 §4.1.2 advises ten minutes at most). */
export const codeLifetimeMs = 60_000;

/** An id_token and an access token. */
export const tokenLifetimeMs = 60 * 60_000;

/** A refresh token, for clients that have them; each use replaces it. */
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60_000;

/** Clocks of relying parties may run this much behind or ahead. */
const clockSkewMs = 5 * 60_000;

/**
 * How long a retired signing key stays published: until the last token it
 * signed has expired, even on a relying party whose clock is behind.
 */
export const retiredKeyPublishedMs = tokenLifetimeMs + clockSkewMs;

/** A signing key is replaced by a new one when it is this old. */
export const signingKeyRotationMs = 90 * 24 * 60 * 60_000;

/**
 * The next signing key is published this long before it signs: longer than
 * relying parties keep the key set (the gateway's Cache-Control says five
 * minutes; jose keeps it ten, mod_auth_openidc an hour by default).
 */
export const nextKeyLeadMs = 2 * 60 * 60_000;

/** A consent page's form: long enough to read the page, short enough to leave no stale form. */
export const consentLifetimeMs = 10 * 60_000;
