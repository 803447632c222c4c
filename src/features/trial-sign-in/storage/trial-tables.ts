import type { Database, Millis } from '../../../foundation/storage/schema.js';

/**
 * The test sign-ins' table as Kysely sees it, typed the way the kernel's
 * are (foundation/storage/schema.ts); made by migrations/.
 */
interface TrialSignInsTable {
  id: string;
  state_key: string;
  actor: string;
  entry_id: string;
  status: string;
  sealed: string;
  trace: string | null;
  created_at: Millis;
  callback_until: Millis;
  expires_at: Millis;
}

// A type rather than an interface: Kysely's withTables takes only a record.
export type TrialTables = {
  test_sign_ins: TrialSignInsTable;
};

/**
 * The gateway's database as the test sign-ins' store sees it: the kernel's
 * tables, and its own beside them (Kysely's withTables over Storage.kysely).
 */
export type TrialDatabase = Database & TrialTables;
