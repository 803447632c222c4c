import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from './provider-gateway.js';
import { sessionLiveness } from '../../foundation/http/session-liveness.js';
import type { SignInEndReason, SignInEnded } from '../../foundation/storage/sign-in-ends.js';
import type { SessionFactor, SessionRecord } from '../../foundation/storage/types.js';
import type { OidcGrantRecord } from './storage/types.js';
import { frontchannelFrames } from './frontchannel-logout.js';
import type { LogoutDeliveries } from './logout-deliveries.js';

/** Why grants end, for the audit trail of their logout tokens: why their sign-in ended. */
export type GrantsEndReason = SignInEndReason;

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

/**
 * Whether the sign-in is still on: its session there, and live by its
 * limits (http/session-liveness.ts); a user locked or an entry closed ends
 * it, and its grants, by their own event.
 */
function stillSignedIn(gateway: Gateway, signIn: SessionRecord | undefined): boolean {
  return (
    signIn !== undefined &&
    sessionLiveness(signIn, signIn, gateway.clock(), gateway.config.sessionIdleMs, true, true) ===
      'live'
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
): Promise<(OidcGrantRecord & { readonly factor?: SessionFactor }) | undefined> {
  const grant = await gateway.storage.providerGrants.grant(grantId);
  if (grant === undefined) return undefined;
  const signIn = await gateway.storage.sessions.get(grant.signInHash);
  // With the sign-in's second factor, if it holds one: the id_token's `amr`.
  if (stillSignedIn(gateway, signIn))
    return signIn?.factor === undefined ? grant : { ...grant, factor: signIn.factor };
  await gateway.signInEnds.raise({
    ended: { signInHash: grant.signInHash },
    reason: 'sign_in_over',
  });
  return undefined;
}

/**
 * The provider's part of every sign-in's end (foundation/storage/sign-in-ends.ts,
 * docs/design.md#when-a-sign-in-ends), its listener from its routes: the
 * sign-in's grants end, their tokens stop working, and each client with a
 * back-channel logout URI is sent a logout token, off the request path
 * (logout-deliveries.ts); for a sign-out in the browser, the front-channel
 * logout pages of their clients are added to the event's frames
 * (frontchannel-logout.ts). Only the caller that deleted a grant tells its
 * client (ProviderGrantStore.endGrants), so of several instances one sends.
 */
export async function endGrantsOfSignIns(
  gateway: Gateway,
  deliveries: LogoutDeliveries,
  event: SignInEnded,
): Promise<void> {
  const ended = await gateway.storage.providerGrants.endGrants(event.ended);
  if (ended.length === 0) return;
  deliveries.send(ended, event.reason);
  if (event.frames !== undefined) event.frames.push(...(await frontchannelFrames(gateway, ended)));
}

/** How many sign-ins the sweep reads at once. */
const sweepPage = 500;

/**
 * The sweep's part (app/expiry-sweep.ts): every sign-in that has grants is
 * checked, and the end of those that are over (expired, idle, or gone
 * without a word: a session in Redis expires by itself) is raised, so their
 * grants end and their clients are told by this instance. Resolves how many
 * sign-ins were found over.
 */
export async function endGrantsOfOverSignIns(gateway: Gateway): Promise<number> {
  let ended = 0;
  let after = '';
  for (;;) {
    const page = await gateway.storage.providerGrants.signInsWithGrants(after, sweepPage);
    for (const signInHash of page) {
      if (stillSignedIn(gateway, await gateway.storage.sessions.get(signInHash))) continue;
      await gateway.signInEnds.raise({ ended: { signInHash }, reason: 'sign_in_over' });
      ended += 1;
    }
    const last = page.at(-1);
    if (page.length < sweepPage || last === undefined) return ended;
    after = last;
  }
}
