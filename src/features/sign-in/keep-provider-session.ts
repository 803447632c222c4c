import type { Gateway } from '../../foundation/http/gateway.js';
import { sessionHash } from '../sessions/session-service.js';
import type { SignInSuccess } from './complete-sign-in.js';

/**
 * Keeps what a provider's sign-in learnt beside its new session: an OpenID
 * Connect sign-in's id_token (the hint of an RP-initiated logout), refresh
 * token (re-validation) and the provider's sid and sub (back-channel
 * logout); and, for an entry that re-checks sessions by calling user info
 * again, the access token. Nothing is kept for other sign-ins.
 */
export async function keepProviderSession(
  gateway: Gateway,
  sessionId: string,
  success: Pick<SignInSuccess, 'entry' | 'user' | 'oidc' | 'access'>,
): Promise<void> {
  const { oidc, access } = success;
  if (oidc === undefined && access === undefined) return;
  const now = gateway.clock();
  await gateway.storage.oidcSessions.save({
    sessionHash: sessionHash(sessionId),
    entryId: success.entry.id,
    subject:
      oidc === undefined
        ? success.user.userId
        : typeof oidc.claims.sub === 'string'
          ? oidc.claims.sub
          : '',
    providerSid: typeof oidc?.claims.sid === 'string' ? oidc.claims.sid : null,
    idToken: oidc?.idToken ?? '',
    refreshToken: oidc?.refreshToken ?? null,
    userInfoAccess: access ?? null,
    checkedAt: now,
    expiresAt: now + gateway.config.sessionLifetimeMs,
  });
}
