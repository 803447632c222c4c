import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import type { FeatureTables } from '../../../foundation/storage/feature-tables.js';
import type { Database } from '../../../foundation/storage/schema.js';
import type { SecondFactorStore } from './factor-store.js';
import { createSecondFactorStore } from './factor-store.js';
import type { SecondFactorTables } from './factor-tables.js';
import { secondFactorsMigration } from './migrations/0029-second-factors.js';
import { webauthnCredentialsMigration } from './migrations/0030-webauthn-credentials.js';
import type { PasskeyStore } from './passkey-store.js';
import { createPasskeyStore } from './passkey-store.js';

/** The second factors' store, beside the kernel's in the gateway's storage (app/open-storage.ts). */
export interface SecondFactorStores {
  readonly secondFactors: SecondFactorStore;
  readonly passkeys: PasskeyStore;
}

/** The store over the kernel's database (Storage.kysely); one-time code secrets sealed with `secretBox`. */
export function createSecondFactorStores(
  db: Kysely<Database>,
  secretBox: SecretBox,
): SecondFactorStores {
  const tables = db.withTables<SecondFactorTables>();
  return {
    secondFactors: createSecondFactorStore(tables, secretBox),
    passkeys: createPasskeyStore(tables),
  };
}

/**
 * The second factors' tables as the storage kernel migrates them
 * (foundation/storage/feature-tables.ts): only a passkey ceremony's
 * challenges expire, and the sweep deletes those.
 */
export const secondFactorTables: FeatureTables = {
  migrations: () => ({
    '0029_second_factors': secondFactorsMigration,
    '0030_webauthn_credentials': webauthnCredentialsMigration,
  }),
  async sweepExpired(trx, _secretBox, now) {
    await trx
      .withTables<SecondFactorTables>()
      .deleteFrom('webauthn_challenges')
      .where('expires_at', '<', now)
      .execute();
  },
};
