import type { Gateway as KernelGateway } from '../../foundation/http/gateway.js';
import type { Storage } from '../../foundation/storage/types.js';
import type { TrialSignInStores } from './storage/trial-stores.js';

/**
 * The gateway as the test sign-ins' modules see it: its storage holds their
 * own store beside the kernel's (storage/trial-stores.ts), added by the
 * composition root (app/open-storage.ts).
 */
export interface Gateway extends KernelGateway {
  readonly storage: Storage & TrialSignInStores;
}
