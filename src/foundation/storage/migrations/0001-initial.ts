import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../schema.js';

type ColumnBuild = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * The only dialect difference in the schema: an auto-assigned integer key.
 * SQLite's AUTOINCREMENT never reuses an id (audit paging relies on ids only
 * growing); PostgreSQL's serial does the same with a sequence.
 */
function serialId(dialect: SqlDialect): [string, 'serial' | 'integer', ColumnBuild] {
  return dialect === 'postgres'
    ? ['id', 'serial', (column) => column.primaryKey()]
    : ['id', 'integer', (column) => column.primaryKey().autoIncrement()];
}

const notNull: ColumnBuild = (column) => column.notNull();

/** The first schema: written with the schema builder only, for both dialects. */
export function initialMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('entries')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('definition', 'text', notNull)
        .addColumn('appsecret_sealed', 'text')
        .addColumn('position', 'integer', notNull)
        .addColumn('is_default', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();

      await db.schema
        .createTable('users')
        .addColumn(...serialId(dialect))
        .addColumn('user_id', 'text', (column) => column.notNull().unique())
        .addColumn('source_entry_id', 'text')
        .addColumn('user_name', 'text')
        .addColumn('email', 'text')
        .addColumn('mobile', 'text')
        .addColumn('department', 'text')
        .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('is_admin', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('password_hash', 'text')
        .addColumn('extra', 'text', (column) => column.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .addColumn('last_sign_in_at', 'bigint')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (column) => column.primaryKey())
        .addColumn('user_row_id', 'integer', (column) =>
          column.notNull().references('users.id').onDelete('cascade'),
        )
        // No foreign key: an entry's sessions are ended by the admin API and
        // refused by the session check (sessions/session-service.ts) instead.
        .addColumn('entry_id', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('last_seen_at', 'bigint', notNull)
        .addColumn('expires_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('sessions_user_row_id')
        .on('sessions')
        .column('user_row_id')
        .execute();

      await db.schema
        .createTable('pending_sign_ins')
        .addColumn('state_hash', 'text', (column) => column.primaryKey())
        .addColumn('entry_id', 'text', notNull)
        .addColumn('return_to', 'text', notNull)
        .addColumn('binding_hash', 'text', notNull)
        .addColumn('redirect_uri', 'text', notNull)
        .addColumn('code_verifier', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('expires_at', 'bigint', notNull)
        .execute();

      await db.schema
        .createTable('audit_events')
        .addColumn(...serialId(dialect))
        .addColumn('at', 'bigint', notNull)
        .addColumn('kind', 'text', notNull)
        .addColumn('outcome', 'text', notNull)
        .addColumn('entry_id', 'text')
        .addColumn('user_id', 'text')
        .addColumn('actor', 'text')
        .addColumn('code', 'text')
        .addColumn('reference', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('detail', 'text')
        .execute();
      for (const column of ['at', 'entry_id', 'user_id']) {
        await db.schema
          .createIndex(`audit_events_${column}`)
          .on('audit_events')
          .column(column)
          .execute();
      }

      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', notNull)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'api_tokens',
        'audit_events',
        'pending_sign_ins',
        'sessions',
        'users',
        'entries',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
