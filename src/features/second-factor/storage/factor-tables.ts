import type { Database, Millis, NullableMillis } from '../../../foundation/storage/schema.js';

/** The second factors' tables as Kysely sees them; made by migrations/. */
interface SecondFactorsTable {
  factor_id: string;
  user_row_id: number;
  /** `totp`. */
  kind: string;
  name: string;
  /** The one-time code's secret, base32, sealed. */
  secret_sealed: string;
  /** The last time step a code was accepted for; 0 before the first. */
  last_step: Millis;
  created_at: Millis;
  last_used_at: NullableMillis;
}

interface RecoveryCodesTable {
  code_hash: string;
  user_row_id: number;
  created_at: Millis;
  used_at: NullableMillis;
}

// A type rather than an interface: Kysely's withTables takes only a record.
export type SecondFactorTables = {
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
};

export type SecondFactorDatabase = Database & SecondFactorTables;
