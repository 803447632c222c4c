import type { FastifyInstance } from 'fastify';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import type { Gateway } from './provider-gateway.js';
import { authorize } from './authorization-endpoint.js';
import { decideConsent } from './consent.js';
import { discoveryDocument, providerPaths } from './endpoints.js';
import { endSessionAtClient } from './end-session-endpoint.js';
import { LogoutDeliveries } from './logout-deliveries.js';
import { endGrantsOfSignIns } from './sign-in-grants.js';
import { publishedKeySet } from './signing-keys.js';
import { exchangeCode } from './token-endpoint.js';
import { userInfo } from './userinfo-endpoint.js';
import type { FeatureApiRoutes } from '../admin-api/routes.js';
import { oidcClientRoutes } from './admin/oidc-client-routes.js';

/**
 * The gateway as an OpenID Provider (docs/openid-provider.md), registered
 * as one encapsulated plugin: its discovery document, keys, and the
 * authorization (with its consent form), token, userinfo and end-session
 * endpoints; and its logout tokens to clients, stopped when the app closes.
 * A route's policy is where it is registered: in the plugin itself, on
 * every host; in its auth-host scope (foundation/http/auth-host-only.ts),
 * on the auth host only. No hook of the plugin reaches another feature's
 * routes. Its resources in the admin API are providerAdminRoutes.
 */
export async function openIdProviderRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  // Registered at once, not when the app is ready, so its close hook keeps
  // its place among the app's (app/build-app.ts).
  await app.register((provider, _options, done) => {
    providerRoutes(provider, gateway);
    done();
  });
}

function providerRoutes(provider: FastifyInstance, gateway: Gateway): void {
  // The grants of every sign-in that ends end with it, and their clients
  // are told (sign-in-grants.ts); the deliveries are this app's own.
  const deliveries = new LogoutDeliveries(gateway, provider.log);
  gateway.signInEnds.listen((event) => endGrantsOfSignIns(gateway, deliveries, event));
  provider.addHook('onClose', () => deliveries.close());
  provider.get(providerPaths.discovery, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(discoveryDocument(gateway)),
  );
  provider.get(providerPaths.jwks, async (_request, reply) => {
    const keySet = await publishedKeySet(gateway.storage, gateway.clock());
    // Short enough that a relying party sees a new key within minutes; a
    // token signed with a kid it has not seen makes it fetch again anyway.
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/jwk-set+json')
      .send(keySet);
  });
  // Servers call these with a client's credentials or a token, never the
  // browser's session: they answer on every host.
  provider.post(providerPaths.token, (request, reply) => exchangeCode(gateway, request, reply));
  provider.get(providerPaths.userinfo, (request, reply) => userInfo(gateway, request, reply));
  provider.post(providerPaths.userinfo, (request, reply) => userInfo(gateway, request, reply));
  // These turn the browser's session into a code, an id_token or a sign-out
  // for any client: on the auth host only (foundation/http/auth-host-only.ts).
  // The authorization and end-session endpoints take GET and POST alike
  // (OpenID Connect Core 1.0 §3.1.2.1, RP-Initiated Logout 1.0 §2).
  authHostOnly(provider, gateway, (scope) => {
    scope.get(providerPaths.authorize, (request, reply) => authorize(gateway, request, reply));
    scope.post(providerPaths.authorize, (request, reply) => authorize(gateway, request, reply));
    scope.post(providerPaths.consent, (request, reply) => decideConsent(gateway, request, reply));
    scope.get(providerPaths.endSession, (request, reply) =>
      endSessionAtClient(gateway, request, reply),
    );
    scope.post(providerPaths.endSession, (request, reply) =>
      endSessionAtClient(gateway, request, reply),
    );
  });
}

/**
 * The provider's resources in the admin API (admin/oidc-client-routes.ts):
 * its OpenID clients, declared through the admin API's router, so they sit
 * in its scope (the auth host, an administrator's token or session) and in
 * its OpenAPI document.
 */
export function providerAdminRoutes(gateway: Gateway): FeatureApiRoutes {
  return {
    among: 'resources',
    declare: (api) => {
      oidcClientRoutes(api, gateway);
    },
  };
}
