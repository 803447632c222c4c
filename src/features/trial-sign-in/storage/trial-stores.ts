import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import type { FeatureTables } from '../../../foundation/storage/feature-tables.js';
import type { Database } from '../../../foundation/storage/schema.js';
import { trialSignInMigrations } from './migrations/index.js';
import type { TrialTables } from './trial-tables.js';
import { createTrialSignInStore } from './trial-sign-in-store.js';
import type { TrialSignInStore } from './types.js';

/** The test sign-ins' store, beside the kernel's in the gateway's storage (app/open-storage.ts). */
export interface TrialSignInStores {
  /** Administrators' test sign-ins and their traces (docs/admin-api.md#test-sign-in). */
  readonly trialSignIns: TrialSignInStore;
}

/** The store over the kernel's database (Storage.kysely); its secrets sealed with `secretBox`. */
export function createTrialSignInStores(
  db: Kysely<Database>,
  secretBox: SecretBox,
): TrialSignInStores {
  return { trialSignIns: createTrialSignInStore(db.withTables<TrialTables>(), secretBox) };
}

/**
 * The test sign-ins' table as the storage kernel migrates and sweeps it
 * (foundation/storage/feature-tables.ts): its migration, and, in the
 * expiry sweep's transaction, the tests whose trace expired a day ago.
 */
export const trialSignInTables: FeatureTables = {
  migrations: () => trialSignInMigrations,
  async sweepExpired(trx, secretBox, now) {
    await createTrialSignInStore(trx.withTables<TrialTables>(), secretBox).deleteExpired(now);
  },
};
