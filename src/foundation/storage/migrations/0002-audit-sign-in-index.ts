import type { Kysely, Migration } from 'kysely';

/**
 * The console shows each entry's last successful and last failed sign-in,
 * read from the audit trail: this index makes each a single lookup of
 * max(at) however many events have accumulated.
 */
export const auditSignInIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('audit_events_entry_sign_ins')
      .on('audit_events')
      .columns(['entry_id', 'kind', 'outcome', 'at'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_entry_sign_ins').execute();
  },
};
