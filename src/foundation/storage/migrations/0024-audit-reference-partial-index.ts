import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * The index of audit events by reference id (0010-audit-reference-index.ts)
 * holds only the events that have one: a failure's. A successful sign-in's
 * event has none, and as a partial index (`WHERE reference IS NOT NULL`) it
 * no longer writes a page of this index at every sign-in's commit (docs/benchmarks.md#pages-a-sign-in-writes).
 * A lookup by reference (`reference = ?`) implies the condition, so SQLite
 * and PostgreSQL still use the index for it.
 */
export const auditReferencePartialIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_reference').execute();
    await sql`create index audit_events_reference on audit_events (reference) where reference is not null`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_reference').execute();
    await db.schema
      .createIndex('audit_events_reference')
      .on('audit_events')
      .column('reference')
      .execute();
  },
};
