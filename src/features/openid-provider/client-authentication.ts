import { timingSafeEqual } from 'node:crypto';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from './provider-gateway.js';
import type { OidcClientRecord } from './storage/types.js';

/** Client id and secret from HTTP Basic, each form-urlencoded first (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const unescape = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** The secret's hash against the stored one, in constant time. */
function secretMatches(secret: string, secretHash: string): boolean {
  const presented = Buffer.from(sha256Base64url(secret));
  const stored = Buffer.from(secretHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * The client a token request authenticates as: client_secret_basic,
 * client_secret_post, or none for a public client (which PKCE then
 * proves). One method only; a confidential client must present its secret,
 * a public one none. Undefined when it does not authenticate.
 */
export async function authenticatedClient(
  gateway: Gateway,
  authorization: string | undefined,
  body: Readonly<Record<string, unknown>>,
): Promise<OidcClientRecord | undefined> {
  const basic = basicCredentials(authorization);
  const postedId = body.client_id;
  const postedSecret = body.client_secret;
  if (basic !== undefined && postedSecret !== undefined) return undefined;
  if (basic !== undefined && postedId !== undefined && postedId !== basic.id) return undefined;
  const clientId = basic?.id ?? postedId;
  if (typeof clientId !== 'string') return undefined;
  const client = await gateway.storage.providerClients.get(clientId);
  if (client === undefined) return undefined;
  const secret = basic?.secret ?? postedSecret;
  if (client.secretHash === null) return secret === undefined ? client : undefined;
  return typeof secret === 'string' && secretMatches(secret, client.secretHash)
    ? client
    : undefined;
}
