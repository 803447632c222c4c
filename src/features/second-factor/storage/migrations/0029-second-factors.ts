import type { Kysely, Migration } from 'kysely';

/**
 * Users' second factors (docs/security.md#second-factor).
 * - `second_factors`: one row per factor a user holds and named; a
 *   one-time code's secret sealed (`secret_sealed`, the key of
 *   foundation/crypto/secret-box.ts), and the last time step a code of it
 *   was accepted (`last_step`), which a code must exceed: the update that
 *   raises it is the one check, so a code is good once across every
 *   instance on the database (RFC 6238 §5.2).
 * - `recovery_codes`: a user's one-time recovery codes, stored as SHA-256
 *   hashes; `used_at` is set by the one update that accepts one.
 */
export const secondFactorsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('second_factors')
      .addColumn('factor_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('name', 'varchar(64)', (column) => column.notNull())
      .addColumn('secret_sealed', 'text', (column) => column.notNull())
      .addColumn('last_step', 'bigint', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('second_factors_user')
      .on('second_factors')
      .column('user_row_id')
      .execute();
    await db.schema
      .createTable('recovery_codes')
      .addColumn('code_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('recovery_codes_user')
      .on('recovery_codes')
      .column('user_row_id')
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('recovery_codes').execute();
    await db.schema.dropTable('second_factors').execute();
  },
};
