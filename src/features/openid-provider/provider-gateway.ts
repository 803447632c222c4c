import type { Gateway as KernelGateway } from '../../foundation/http/gateway.js';
import type { Storage } from '../../foundation/storage/types.js';
import type { ProviderStores } from './storage/provider-stores.js';

/**
 * The gateway as the provider's modules see it: its storage holds the
 * provider's own stores beside the kernel's (storage/provider-stores.ts),
 * added by the composition root (app/open-storage.ts).
 */
export interface Gateway extends KernelGateway {
  readonly storage: Storage & ProviderStores;
}
