import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import type { FeatureTables } from '../../../foundation/storage/feature-tables.js';
import type { Database } from '../../../foundation/storage/schema.js';
import type { SecondFactorStore } from './factor-store.js';
import { createSecondFactorStore } from './factor-store.js';
import type { SecondFactorTables } from './factor-tables.js';
import { secondFactorsMigration } from './migrations/0029-second-factors.js';

/** The second factors' store, beside the kernel's in the gateway's storage (app/open-storage.ts). */
export interface SecondFactorStores {
  readonly secondFactors: SecondFactorStore;
}

/** The store over the kernel's database (Storage.kysely); one-time code secrets sealed with `secretBox`. */
export function createSecondFactorStores(
  db: Kysely<Database>,
  secretBox: SecretBox,
): SecondFactorStores {
  return { secondFactors: createSecondFactorStore(db.withTables<SecondFactorTables>(), secretBox) };
}

/**
 * The second factors' tables as the storage kernel migrates them
 * (foundation/storage/feature-tables.ts): nothing in them expires, so the
 * sweep has nothing to delete.
 */
export const secondFactorTables: FeatureTables = {
  migrations: () => ({ '0029_second_factors': secondFactorsMigration }),
  sweepExpired: () => Promise.resolve(),
};
