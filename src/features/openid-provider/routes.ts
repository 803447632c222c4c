import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import { publishedKeySet } from './signing-keys.js';

/** Where the provider publishes its keys; the discovery document names it. */
export const jwksPath = '/_sso/oidc/jwks';

/**
 * The gateway as an OpenID Provider (docs/openid-provider.md): its keys,
 * discovery document, authorization, token, userinfo and end-session
 * endpoints.
 */
export function openIdProviderRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get(jwksPath, async (_request, reply) => {
    const keySet = await publishedKeySet(gateway.storage, gateway.clock());
    // Short enough that a relying party sees a new key within minutes; a
    // token signed with a kid it has not seen makes it fetch again anyway.
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/jwk-set+json')
      .send(keySet);
  });
}
