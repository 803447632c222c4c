import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderRefusalCode } from '../../core/index.js';
import { providerRefusal } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from './provider-gateway.js';
import { clientAcceptsUser } from './client-rules.js';
import type { RefusalFacts } from './oauth-answers.js';
import { auditRefusal, oauthError } from './oauth-answers.js';
import { liveGrant } from './sign-in-grants.js';
import { userClaims } from './token-endpoint.js';

/**
 * The userinfo endpoint (OpenID Connect Core §5.3), for a Bearer access
 * token in the Authorization header (RFC 6750 §2.1). A token unknown,
 * expired or revoked, of a gateway sign-in that has ended, of a client
 * since deleted, of a user since disabled or no longer accepted by the
 * client's rules, is refused with `invalid_token`; each refusal is audited
 * as a failed `oidc_token` at this endpoint.
 */
export async function userInfo(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const refuse = async (code: ProviderRefusalCode, facts: RefusalFacts = {}) => {
    const refusal = providerRefusal(code);
    await auditRefusal(gateway, request, 'oidc_token', refusal.auditCode, {
      ...facts,
      detail: { endpoint: 'userinfo' },
    });
    // RFC 6750 §3: the error is named in the challenge, but for a request without a token.
    const challenge =
      code === 'provider_bearer_missing' ? 'Bearer' : `Bearer error="${refusal.error}"`;
    return oauthError(reply.header('www-authenticate', challenge), refusal);
  };
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(request.headers.authorization ?? '');
  if (match === null) return refuse('provider_bearer_missing');
  const token = await gateway.storage.providerGrants.accessToken(
    sha256Base64url(match[1] ?? ''),
    gateway.clock(),
  );
  if (token === undefined) return refuse('provider_access_token_invalid');
  const { clientId } = token;
  // The gateway sign-in it came from must still be on (sign-in-grants.ts).
  const grant = await liveGrant(gateway, token.grantId);
  if (grant === undefined) return refuse('provider_access_token_sign_in_ended', { clientId });
  const { entryId } = grant;
  const client = await gateway.storage.providerClients.get(clientId);
  if (client === undefined) {
    return refuse('provider_access_token_client_gone', { clientId, entryId });
  }
  const user = await gateway.storage.users.get(token.userRowId);
  if (user?.enabled !== true) {
    const userId = user?.userId ?? null;
    return refuse('provider_access_token_user_disabled', { clientId, entryId, userId });
  }
  // The client's rules as they are now (client-rules.ts); audited with the
  // code oidc_user_refused (the registry's auditedAs).
  if (!clientAcceptsUser(client, grant.entryId, user)) {
    return refuse('provider_access_token_user_refused', { clientId, entryId, userId: user.userId });
  }
  return reply.header('cache-control', 'no-store').send(userClaims(gateway, client, user));
}
