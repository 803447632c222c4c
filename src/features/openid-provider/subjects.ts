import { createHmac } from 'node:crypto';
import { SsogateError, pairwiseSector } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import type { OidcClientRecord } from './storage/types.js';

type SubjectClient = Pick<OidcClientRecord, 'clientId' | 'subjectType' | 'redirectUris'>;

/**
 * The `sub` a client is given for a user: the one computation behind the
 * id_token, userinfo and any logout token, so they always agree.
 *
 * A public client gets the user's id. A pairwise client (OpenID Connect
 * Core §8.1) gets base64url(HMAC-SHA-256(key, [sector, userId])): stable for
 * the user and the host of the client's redirect URIs, the same on every
 * instance (the key is derived from the shared secret key:
 * storage/signing-key-store.ts), and not to be matched with what a
 * client of another host is given. The sector and the id are joined as a
 * JSON array, so no two pairs give one input.
 */
export function subjectFor(gateway: Gateway, client: SubjectClient, user: UserRecord): string {
  if (client.subjectType === 'public') return user.userId;
  const sector = pairwiseSector(client.redirectUris);
  if (sector === undefined) {
    // The admin API never saves such a client; one that got here some other
    // way gets no subject rather than one shared across hosts.
    throw new SsogateError(
      'oidc_client_sector_ambiguous',
      `the pairwise client ${client.clientId} has redirect URIs on several hosts`,
    );
  }
  return createHmac('sha256', gateway.storage.providerSigningKeys.subjectKey())
    .update(JSON.stringify([sector, user.userId]))
    .digest('base64url');
}
