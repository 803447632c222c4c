import type { UpstreamSessionStore, SessionRecord } from '../../foundation/storage/types.js';
import type { SignInSuccess } from './complete-sign-in.js';

/**
 * Keeps what a provider's sign-in learnt beside its new session: an OpenID
 * Connect sign-in's id_token (the hint of an RP-initiated logout), refresh
 * token (re-validation) and the provider's sid and sub (back-channel
 * logout); a SAML sign-in's NameID and SessionIndex in the same places
 * (its single logout, SAML Profiles §4.4); and, for an entry that re-checks
 * sessions by calling user info again, the access token. Nothing is kept
 * for other sign-ins.
 *
 * `store` is the sign-in's transaction's (routes.ts): the record commits
 * with the session or not at all, so no session outlives a logout that
 * could not find it. Vouched for as the session starts, it ends with it.
 */
export async function keepProviderSession(
  store: UpstreamSessionStore,
  session: Pick<SessionRecord, 'idHash' | 'createdAt' | 'expiresAt'>,
  success: Pick<SignInSuccess, 'entry' | 'user' | 'oidc' | 'access' | 'saml'>,
): Promise<void> {
  const { oidc, access, saml } = success;
  if (oidc === undefined && access === undefined && saml === undefined) return;
  await store.save({
    sessionHash: session.idHash,
    entryId: success.entry.id,
    subject:
      saml !== undefined
        ? saml.nameId
        : oidc === undefined
          ? success.user.userId
          : typeof oidc.claims.sub === 'string'
            ? oidc.claims.sub
            : '',
    providerSid:
      saml !== undefined
        ? (saml.sessionIndex ?? null)
        : typeof oidc?.claims.sid === 'string'
          ? oidc.claims.sid
          : null,
    subjectQualifiers: saml?.qualifiers ?? null,
    idToken: oidc?.idToken ?? '',
    refreshToken: oidc?.refreshToken ?? null,
    userInfoAccess: access ?? null,
    checkedAt: session.createdAt,
    expiresAt: session.expiresAt,
  });
}
