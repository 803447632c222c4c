import type { CompiledEntry } from '../../core/index.js';
import { signedOutUrl } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2: a session signed in through an
 * OpenID Connect entry whose provider has an end_session_endpoint ends
 * there too. The browser is sent with the session's id_token as
 * `id_token_hint` and the gateway's signed-out page as
 * `post_logout_redirect_uri`; the provider's side of the session is
 * forgotten here. Undefined when the entry's own logoutUrl applies instead
 * (an administrator's logoutUrl wins), or there is nothing to end.
 */
export async function providerLogoutUrl(
  gateway: Gateway,
  entry: CompiledEntry | undefined,
  sessionHash: string,
): Promise<string | undefined> {
  const kept = await gateway.storage.upstreamSessions.get(sessionHash);
  if (kept === undefined) return undefined;
  await gateway.storage.upstreamSessions.delete(sessionHash);
  if (entry?.type !== 'oauth2' || entry.oidc === undefined || entry.logout !== undefined) {
    return undefined;
  }
  const endpoint = entry.oidc.discovery.endSessionEndpoint;
  if (endpoint === undefined) return undefined;
  const url = new URL(endpoint);
  url.searchParams.set('id_token_hint', kept.idToken);
  url.searchParams.set('post_logout_redirect_uri', signedOutUrl(gateway.config.publicUrl));
  if (entry.appid !== undefined) url.searchParams.set('client_id', entry.appid);
  return url.toString();
}
