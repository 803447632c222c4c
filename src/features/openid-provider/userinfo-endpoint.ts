import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { oauthError } from './oauth-answers.js';
import { liveGrant } from './sign-in-grants.js';
import { userClaims } from './token-endpoint.js';

/**
 * The userinfo endpoint (OpenID Connect Core §5.3), for a Bearer access
 * token in the Authorization header (RFC 6750 §2.1). A token unknown,
 * expired or revoked, of a gateway sign-in that has ended, of a client
 * since deleted or of a user since disabled, is refused with `invalid_token`.
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
  const token = await gateway.storage.oidcGrants.accessToken(
    sha256Base64url(match[1] ?? ''),
    gateway.clock(),
  );
  // The gateway sign-in it came from must still be on (sign-in-grants.ts).
  if (token === undefined || (await liveGrant(gateway, token.grantId)) === undefined) {
    return refuse();
  }
  const client = await gateway.storage.oidcClients.get(token.clientId);
  if (client === undefined) return refuse();
  const user = await gateway.storage.users.get(token.userRowId);
  if (user?.enabled !== true) return refuse();
  return reply.header('cache-control', 'no-store').send(userClaims(gateway, client, user));
}
