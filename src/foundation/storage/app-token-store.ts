import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { toMillis } from './columns.js';
import type { Database } from './schema.js';
import type { AppTokenStore } from './types.js';

/** The application tokens in the database, sealed with the same key as the secrets. */
export function createAppTokenStore(db: Kysely<Database>, secretBox: SecretBox): AppTokenStore {
  return {
    async get(entryId) {
      const row = await db
        .selectFrom('app_tokens')
        .selectAll()
        .where('entry_id', '=', entryId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        token: secretBox.open(row.token_sealed),
        fingerprint: row.fingerprint,
        expiresAt: toMillis(row.expires_at),
      };
    },
    async put(entryId, { token, fingerprint, expiresAt }) {
      const values = { fingerprint, token_sealed: secretBox.seal(token), expires_at: expiresAt };
      await db
        .insertInto('app_tokens')
        .values({ entry_id: entryId, ...values })
        .onConflict((conflict) => conflict.column('entry_id').doUpdateSet(values))
        .execute();
    },
    async drop(entryId, token) {
      const cached = await this.get(entryId);
      if (cached?.token !== token) return;
      await db
        .deleteFrom('app_tokens')
        .where('entry_id', '=', entryId)
        .where('expires_at', '=', cached.expiresAt)
        .execute();
    },
  };
}
