import type { Kysely, Migration } from 'kysely';

/**
 * Each grant of the OpenID Provider (a code and every token exchanged for
 * it) tied to the gateway sign-in it came from
 * (docs/openid-provider.md#back-channel-logout): its session hash, the
 * `sid` its id_tokens carry, and the subject and client a logout token
 * names. When that sign-in ends, its grants are deleted in one statement
 * (DELETE ... RETURNING), so of several instances one alone sends the
 * logout tokens. Grants issued before have no row, and their tokens are
 * refused: none outlives a sign-in it cannot name.
 */
export const oidcGrantSignInsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_grants')
      .addColumn('grant_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('client_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('subject', 'varchar(255)', (column) => column.notNull())
      .addColumn('entry_id', 'varchar(64)')
      .addColumn('sign_in_hash', 'varchar(64)', (column) => column.notNull())
      .addColumn('sid', 'varchar(64)', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    for (const column of ['sign_in_hash', 'user_row_id', 'entry_id'] as const) {
      await db.schema
        .createIndex(`oidc_grants_${column}`)
        .on('oidc_grants')
        .column(column)
        .execute();
    }
  },
};
