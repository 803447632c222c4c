import type { Kysely, Migration } from 'kysely';

/**
 * Entries of type extension (docs/extension.md) share a secret with their extension
 * service. Like the appsecret it is sealed into a column of its own, never
 * kept in the definition JSON, so reading the definition can never show it.
 */
export function extensionSecretMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('entries').addColumn('extension_secret_sealed', 'text').execute();
    },
  };
}
