import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from './provider-gateway.js';
import { clientAcceptsUser } from './client-rules.js';
import { oauthError } from './oauth-answers.js';
import { liveGrant } from './sign-in-grants.js';
import { userClaims } from './token-endpoint.js';

/**
 * The userinfo endpoint (OpenID Connect Core §5.3), for a Bearer access
 * token in the Authorization header (RFC 6750 §2.1). A token unknown,
 * expired or revoked, of a gateway sign-in that has ended, of a client
 * since deleted, of a user since disabled or no longer accepted by the
 * client's rules, is refused with `invalid_token`.
 */
export async function userInfo(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const refuse = () =>
    oauthError(
      reply.header('www-authenticate', 'Bearer error="invalid_token"'),
      401,
      'invalid_token',
      'the access token is unknown, expired or revoked',
    );
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(request.headers.authorization ?? '');
  if (match === null) {
    return oauthError(
      reply.header('www-authenticate', 'Bearer'),
      401,
      'invalid_request',
      'a Bearer access token is needed',
    );
  }
  const token = await gateway.storage.providerGrants.accessToken(
    sha256Base64url(match[1] ?? ''),
    gateway.clock(),
  );
  if (token === undefined) return refuse();
  // The gateway sign-in it came from must still be on (sign-in-grants.ts).
  const grant = await liveGrant(gateway, token.grantId);
  if (grant === undefined) return refuse();
  const client = await gateway.storage.providerClients.get(token.clientId);
  if (client === undefined) return refuse();
  const user = await gateway.storage.users.get(token.userRowId);
  if (user?.enabled !== true) return refuse();
  // The client's rules as they are now (client-rules.ts).
  if (!clientAcceptsUser(client, grant.entryId, user)) {
    request.log.warn(
      { code: 'oidc_user_refused', clientId: client.clientId },
      'the client no longer accepts the user of this access token',
    );
    return refuse();
  }
  return reply.header('cache-control', 'no-store').send(userClaims(gateway, client, user));
}
