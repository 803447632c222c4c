import { signedOutUrl } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { UpstreamSessionRecord } from '../../foundation/storage/types.js';

/**
 * What was kept with a session at its sign-in (keep-provider-session.ts),
 * forgotten as the session ends, whatever its entry: RP-Initiated Logout
 * sends its id_token as `id_token_hint`, a SAML LogoutRequest names its
 * NameID and SessionIndex.
 */
export async function takeKeptSession(
  gateway: Gateway,
  sessionHash: string,
): Promise<UpstreamSessionRecord | undefined> {
  const kept = await gateway.storage.upstreamSessions.get(sessionHash);
  if (kept === undefined) return undefined;
  await gateway.storage.upstreamSessions.delete(sessionHash);
  return kept;
}

interface EndSessionOptions {
  readonly idToken: string;
  readonly publicUrl: string;
  readonly clientId: string | undefined;
}

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2: a session signed in through an
 * OpenID Connect entry whose provider has an end_session_endpoint ends
 * there too (src/features/sign-in/sources/openid-connect-source.ts). The
 * browser is sent with the session's id_token as `id_token_hint` and the
 * gateway's signed-out page as `post_logout_redirect_uri`.
 */
export function endSessionUrl(
  endpoint: string,
  { idToken, publicUrl, clientId }: EndSessionOptions,
): string {
  const url = new URL(endpoint);
  url.searchParams.set('id_token_hint', idToken);
  url.searchParams.set('post_logout_redirect_uri', signedOutUrl(publicUrl));
  if (clientId !== undefined) url.searchParams.set('client_id', clientId);
  return url.toString();
}
