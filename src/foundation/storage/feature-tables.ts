import type { Kysely, Migration } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database, SqlDialect } from './schema.js';

/**
 * The tables a feature owns in the gateway's database (the OpenID
 * Provider's: features/openid-provider/storage/; the test sign-ins':
 * features/trial-sign-in/storage/), which the storage kernel migrates and
 * sweeps without importing the feature: the composition root
 * (app/open-storage.ts) hands them in, and builds the feature's stores over
 * the kernel's handle (Storage.kysely).
 */
export interface FeatureTables {
  /**
   * Its migrations, under the names they are recorded by (Kysely's
   * kysely_migration table): they join the kernel's in one list ordered by
   * name (migrations/index.ts), so a database migrates as it always did.
   */
  migrations(dialect: SqlDialect): Readonly<Record<string, Migration>>;
  /** Deletes its rows that only live a while, inside the expiry sweep's transaction. */
  sweepExpired(trx: Kysely<Database>, secretBox: SecretBox, now: number): Promise<void>;
}
