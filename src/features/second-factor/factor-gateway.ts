import type { Gateway as KernelGateway } from '../../foundation/http/gateway.js';
import type { Storage } from '../../foundation/storage/types.js';
import type { SecondFactorStores } from './storage/second-factor-stores.js';

/**
 * The gateway as the second factor's modules see it: its storage holds the
 * factors' own store beside the kernel's (storage/second-factor-stores.ts),
 * added by the composition root (app/open-storage.ts).
 */
export interface Gateway extends KernelGateway {
  readonly storage: Storage & SecondFactorStores;
}
