import type { Kysely, Migration } from 'kysely';

/**
 * A user's error page shows only a reference id, and the console and
 * `GET /_sso/api/audit?reference=` find its events by it: an index so that
 * lookup does not scan the whole audit trail.
 */
export const auditReferenceIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('audit_events_reference')
      .on('audit_events')
      .column('reference')
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_reference').execute();
  },
};
