import type { ProviderRefusalCode } from '../../core/index.js';
import { clientCredentials, clientSecretHolds } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import type { OidcClientRecord } from './storage/types.js';
import type { TokenParameters } from '../../core/index.js';

/** A token request's client that did not authenticate: why, and its id if it is registered. */
interface Unauthenticated {
  readonly refused: ProviderRefusalCode;
  readonly clientId?: string;
}

/**
 * The client a token request authenticates as: client_secret_basic,
 * client_secret_post, or none for a public client (which PKCE then
 * proves). One method only (src/core/provider/token-request.ts); a
 * confidential client must present its secret, a public one none.
 */
export async function authenticatedClient(
  gateway: Gateway,
  authorization: string | undefined,
  parameters: TokenParameters,
): Promise<{ readonly client: OidcClientRecord } | Unauthenticated> {
  const credentials = clientCredentials(authorization, parameters);
  if ('refused' in credentials) return credentials;
  const client = await gateway.storage.providerClients.get(credentials.clientId);
  if (client === undefined) return { refused: 'provider_client_unknown' };
  if (!clientSecretHolds(client.secretHash, credentials.secret)) {
    return { refused: 'provider_client_secret_wrong', clientId: client.clientId };
  }
  return { client };
}
