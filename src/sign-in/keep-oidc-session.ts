import type { Gateway } from '../http/gateway.js';
import type { OidcSignIn } from '../oidc/oidc-sign-in.js';
import { sessionHash } from '../sessions/session-service.js';

/**
 * Keeps what an OpenID Connect sign-in learnt beside its new session: the
 * id_token (the hint of an RP-initiated logout), the refresh token
 * (re-validation), and the provider's sid and sub (back-channel logout).
 */
export async function keepOidcSession(
  gateway: Gateway,
  sessionId: string,
  entryId: string,
  oidc: OidcSignIn,
): Promise<void> {
  const now = gateway.clock();
  await gateway.storage.oidcSessions.save({
    sessionHash: sessionHash(sessionId),
    entryId,
    subject: typeof oidc.claims.sub === 'string' ? oidc.claims.sub : '',
    providerSid: typeof oidc.claims.sid === 'string' ? oidc.claims.sid : null,
    idToken: oidc.idToken,
    refreshToken: oidc.refreshToken ?? null,
    checkedAt: now,
    expiresAt: now + gateway.config.sessionLifetimeMs,
  });
}
