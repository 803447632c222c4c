import type { FeatureApiRoutes } from '../admin-api/routes.js';
import { trialSignInRoutes } from './admin/trial-sign-in-routes.js';
import type { Gateway } from './trial-gateway.js';

/**
 * The test sign-ins' resources in the admin API (admin/trial-sign-in-routes.ts):
 * started with a stored entry or a draft, and their traces, declared through
 * the admin API's router with the entries' routes, so they sit in its scope
 * (the auth host, an administrator's token or session) and in its OpenAPI
 * document where they always were. Their callback is the sign-in's
 * (trialSignInCallback, trial-callback.ts).
 */
export function trialSignInAdminRoutes(gateway: Gateway): FeatureApiRoutes {
  return {
    among: 'entries',
    declare: (api) => {
      trialSignInRoutes(api, gateway);
    },
  };
}
