import type { Gateway } from './provider-gateway.js';
import type { SessionRecord } from '../../foundation/storage/types.js';
import { issuerOf } from './endpoints.js';
import { endGrantsOfSignIns, sidOf, signInHashOf } from './sign-in-grants.js';

/**
 * OpenID Connect Front-Channel Logout 1.0 §2: the grants of the sign-in a
 * sign-out ends are ended here, first (their clients with a back-channel
 * logout URI told as at any end, logout-deliveries.ts), and the
 * front-channel logout URI of each of their clients is resolved: with
 * `iss` and `sid` (the sid of the client's id_tokens) when the client asks
 * for them. The page the browser lands on loads them in hidden frames.
 */
export async function endGrantsForFrontchannel(
  gateway: Gateway,
  session: SessionRecord,
): Promise<string[]> {
  const signInHash = signInHashOf(session);
  const ended = await endGrantsOfSignIns(gateway, {
    ended: { signInHash },
    reason: 'user_signed_out',
  });
  const frames = new Set<string>();
  for (const clientId of new Set(ended.map((grant) => grant.clientId))) {
    const client = await gateway.storage.providerClients.get(clientId);
    const uri = client?.frontchannelLogoutUri ?? null;
    if (client === undefined || uri === null) continue;
    const url = new URL(uri);
    if (client.frontchannelLogoutSessionRequired) {
      url.searchParams.set('iss', issuerOf(gateway));
      url.searchParams.set('sid', sidOf(signInHash));
    }
    frames.add(url.href);
  }
  return [...frames];
}
