import { lazyModule } from '../outbound/lazy-module.js';

/**
 * jose, which verifies provider tokens and signs the gateway's own: loaded
 * with the first OpenID Connect token, not with the gateway, and once.
 */
export const loadJose = lazyModule(() => import('jose'));
