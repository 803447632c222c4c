import type { Kysely, Migration } from 'kysely';

/**
 * The expiry sweep deletes by expiry and idle time, and a sign-in start keeps
 * a browser's newest pending sign-ins by its binding: indexes so that neither
 * scans a whole table.
 */
const indexes = [
  ['pending_sign_ins', 'binding_hash'],
  ['pending_sign_ins', 'expires_at'],
  ['sessions', 'expires_at'],
  ['sessions', 'last_seen_at'],
] as const;

export const expiryIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [table, column] of indexes) {
      await db.schema.createIndex(`${table}_${column}`).on(table).column(column).execute();
    }
  },

  async down(db: Kysely<unknown>) {
    for (const [table, column] of indexes) {
      await db.schema.dropIndex(`${table}_${column}`).execute();
    }
  },
};
