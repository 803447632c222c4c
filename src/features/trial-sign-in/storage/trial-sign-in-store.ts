import type { Kysely, Selectable } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import { toMillis } from '../../../foundation/storage/columns.js';
import type { TrialDatabase } from './trial-tables.js';
import type { TrialSignInRecord, TrialSignInStatus, TrialSignInStore } from './types.js';

/**
 * Expired tests stay this long, so that reading one says "expired" rather
 * than "unknown"; then the expiry sweep deletes them (app/expiry-sweep.ts, trial-stores.ts).
 */
export const keptAfterExpiryMs = 24 * 60 * 60_000;

/** Test sign-ins in the database, their secrets sealed with the entries' key. */
export function createTrialSignInStore(
  db: Kysely<TrialDatabase>,
  secretBox: SecretBox,
): TrialSignInStore {
  const record = (row: Selectable<TrialDatabase['test_sign_ins']>): TrialSignInRecord => ({
    id: row.id,
    stateKey: row.state_key,
    actor: row.actor,
    entryId: row.entry_id,
    status: row.status as TrialSignInStatus,
    secrets: secretBox.open(row.sealed),
    trace: row.trace,
    createdAt: toMillis(row.created_at),
    callbackUntil: toMillis(row.callback_until),
    expiresAt: toMillis(row.expires_at),
  });
  return {
    async create(test) {
      await db
        .insertInto('test_sign_ins')
        .values({
          id: test.id,
          state_key: test.stateKey,
          actor: test.actor,
          entry_id: test.entryId,
          status: test.status,
          sealed: secretBox.seal(test.secrets),
          trace: test.trace,
          created_at: test.createdAt,
          callback_until: test.callbackUntil,
          expires_at: test.expiresAt,
        })
        .execute();
    },
    async get(id) {
      const row = await db
        .selectFrom('test_sign_ins')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : record(row);
    },
    async claim(stateKey, now) {
      const row = await db
        .updateTable('test_sign_ins')
        .set({ status: 'running' })
        .where('state_key', '=', stateKey)
        .where('status', '=', 'waiting')
        .where('callback_until', '>', now)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : record(row);
    },
    async saveTrace(id, trace, status) {
      await db.updateTable('test_sign_ins').set({ trace, status }).where('id', '=', id).execute();
    },
    async deleteExpired(now) {
      const result = await db
        .deleteFrom('test_sign_ins')
        .where('expires_at', '<', now - keptAfterExpiryMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
