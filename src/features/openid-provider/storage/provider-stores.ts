import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import type { FeatureTables } from '../../../foundation/storage/feature-tables.js';
import type { Database } from '../../../foundation/storage/schema.js';
import { createProviderClientStore } from './client-store.js';
import { createProviderGrantStore } from './grant-store.js';
import { providerMigrations } from './migrations/index.js';
import type { ProviderTables } from './provider-tables.js';
import { createProviderSigningKeyStore } from './signing-key-store.js';
import type { ProviderClientStore, ProviderGrantStore, ProviderSigningKeyStore } from './types.js';

/**
 * The OpenID Provider's stores, beside the kernel's in the gateway's
 * storage (app/open-storage.ts): named `provider…` so that none reads as
 * the relying party's (`upstreamSessions`, an upstream provider's sessions).
 */
export interface ProviderStores {
  /** The applications signing in through the gateway (client-store.ts). */
  readonly providerClients: ProviderClientStore;
  /** Its signing keys, the private ones sealed (signing-key-store.ts). */
  readonly providerSigningKeys: ProviderSigningKeyStore;
  /** Its grants, codes and tokens, stored hashed (grant-store.ts). */
  readonly providerGrants: ProviderGrantStore;
}

/** The stores over the kernel's database (Storage.kysely); private keys sealed with `secretBox`. */
export function createProviderStores(db: Kysely<Database>, secretBox: SecretBox): ProviderStores {
  const tables = db.withTables<ProviderTables>();
  return {
    providerClients: createProviderClientStore(tables),
    providerSigningKeys: createProviderSigningKeyStore(tables, secretBox),
    providerGrants: createProviderGrantStore(tables),
  };
}

/**
 * The provider's tables as the storage kernel migrates and sweeps them
 * (foundation/storage/feature-tables.ts): its migrations, and, in the
 * expiry sweep's transaction, its retired keys no longer published and its
 * codes and tokens that are over.
 */
export const providerTables: FeatureTables = {
  migrations: () => providerMigrations,
  async sweepExpired(trx, secretBox, now) {
    const tables = trx.withTables<ProviderTables>();
    await createProviderSigningKeyStore(tables, secretBox).deleteUnpublished(now);
    await createProviderGrantStore(tables).deleteExpired(now);
  },
};
