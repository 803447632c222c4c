import type { Gateway } from './provider-gateway.js';
import type { OidcGrantRecord } from './storage/types.js';
import { issuerOf } from './endpoints.js';

/**
 * OpenID Connect Front-Channel Logout 1.0 §2: the front-channel logout URI
 * of each client of the grants a sign-out ended (sign-in-grants.ts), once
 * per client: with `iss` and `sid` (the sid of the client's id_tokens) when
 * the client asks for them. The page the browser lands on loads them in
 * hidden frames.
 */
export async function frontchannelFrames(
  gateway: Gateway,
  ended: readonly OidcGrantRecord[],
): Promise<string[]> {
  const frames = new Set<string>();
  const sids = new Map<string, string>();
  for (const grant of ended) if (!sids.has(grant.clientId)) sids.set(grant.clientId, grant.sid);
  for (const [clientId, sid] of sids) {
    const client = await gateway.storage.providerClients.get(clientId);
    const uri = client?.frontchannelLogoutUri ?? null;
    if (client === undefined || uri === null) continue;
    const url = new URL(uri);
    if (client.frontchannelLogoutSessionRequired) {
      url.searchParams.set('iss', issuerOf(gateway));
      url.searchParams.set('sid', sid);
    }
    frames.add(url.href);
  }
  return [...frames];
}
