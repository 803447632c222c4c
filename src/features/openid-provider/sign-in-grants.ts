import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type {
  OidcGrantRecord,
  OidcGrantsMatch,
  SessionRecord,
  SessionStore,
} from '../../foundation/storage/types.js';
import { logoutDeliveriesOf } from './logout-deliveries.js';

/** Why grants end, for the audit trail of their logout tokens. */
export type GrantsEndReason =
  'sign_in_ended' | 'sign_in_over' | 'user_signed_out' | 'entry_sessions_ended';

/**
 * The `sid` of a gateway sign-in (OpenID Connect Back-Channel Logout 1.0
 * §2.1): one per sign-in, the same for every client, opaque. Derived from
 * the session's hash, not the hash itself, so that no client holds a key of
 * the sessions table.
 */
export function sidOf(signInHash: string): string {
  return sha256Base64url(`oidc-sid:${signInHash}`);
}

/** The sign-in of a session: itself, or for a host's session the sign-in it was handed from. */
export function signInHashOf(session: SessionRecord): string {
  return session.signInHash ?? session.idHash;
}

/** Whether the sign-in is still on: its session there, not past its end, not idle too long. */
function stillSignedIn(gateway: Gateway, signIn: SessionRecord | undefined): boolean {
  const now = gateway.clock();
  return (
    signIn !== undefined &&
    signIn.expiresAt > now &&
    signIn.lastSeenAt + gateway.config.sessionIdleMs > now
  );
}

/**
 * The grant, if the gateway sign-in it came from is still on; read from
 * storage at every use, so a sign-in ended on any instance (or expired, or
 * idle) holds here at once. A grant whose sign-in is found over is ended
 * here, and its client told.
 */
export async function liveGrant(
  gateway: Gateway,
  grantId: string,
): Promise<OidcGrantRecord | undefined> {
  const grant = await gateway.storage.oidcGrants.grant(grantId);
  if (grant === undefined) return undefined;
  if (stillSignedIn(gateway, await gateway.storage.sessions.get(grant.signInHash))) return grant;
  await endGrants(gateway, { signInHash: grant.signInHash }, 'sign_in_over');
  return undefined;
}

/**
 * Ends the grants matched: their tokens stop working, and each client with
 * a back-channel logout URI is sent a logout token, off the request path
 * (logout-deliveries.ts). Only the caller that deleted a grant tells its
 * client (OidcGrantStore.endGrants), so of several instances one sends.
 */
async function endGrants(
  gateway: Gateway,
  match: OidcGrantsMatch,
  reason: GrantsEndReason,
): Promise<number> {
  const ended = await gateway.storage.oidcGrants.endGrants(match);
  if (ended.length > 0) logoutDeliveriesOf(gateway)?.send(ended, reason);
  return ended.length;
}

/**
 * The session store with every ending of sessions ending their grants too:
 * a sign-out (here or everywhere), a session replaced, ended by an
 * administrator, by the upstream provider's back-channel logout or a failed
 * re-validation, a user locked, an entry disabled. Expiry is the sweep's
 * (endGrantsOfOverSignIns) and each use's (liveGrant).
 */
export function sessionStoreEndingGrants(
  sessions: SessionStore,
  gateway: () => Gateway,
): SessionStore {
  return {
    ...sessions,
    async delete(idHash) {
      await sessions.delete(idHash);
      await endGrants(gateway(), { signInHash: idHash }, 'sign_in_ended');
    },
    async deleteForUser(userRowId) {
      const ended = await sessions.deleteForUser(userRowId);
      await endGrants(gateway(), { userRowId }, 'user_signed_out');
      return ended;
    },
    async deleteForEntry(entryId) {
      const ended = await sessions.deleteForEntry(entryId);
      await endGrants(gateway(), { entryId }, 'entry_sessions_ended');
      return ended;
    },
  };
}

/** How many sign-ins the sweep reads at once. */
const sweepPage = 500;

/**
 * The sweep's part (app/expiry-sweep.ts): every sign-in that has grants is
 * checked, and the grants of those that are over (expired, idle, or gone
 * without a word: a session in Redis expires by itself) end, their clients
 * told by this instance. Resolves how many grants ended.
 */
export async function endGrantsOfOverSignIns(gateway: Gateway): Promise<number> {
  let ended = 0;
  let after = '';
  for (;;) {
    const page = await gateway.storage.oidcGrants.signInsWithGrants(after, sweepPage);
    for (const signInHash of page) {
      if (stillSignedIn(gateway, await gateway.storage.sessions.get(signInHash))) continue;
      ended += await endGrants(gateway, { signInHash }, 'sign_in_over');
    }
    const last = page.at(-1);
    if (page.length < sweepPage || last === undefined) return ended;
    after = last;
  }
}
