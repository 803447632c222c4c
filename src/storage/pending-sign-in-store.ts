import type { Kysely, Selectable } from 'kysely';
import { toMillis } from './columns.js';
import type { Database, PendingSignInsTable } from './schema.js';
import type { PendingSignIn, PendingSignInStore } from './types.js';

function toRecord(row: Selectable<PendingSignInsTable>): PendingSignIn {
  return {
    stateHash: row.state_hash,
    entryId: row.entry_id,
    returnTo: row.return_to,
    bindingHash: row.binding_hash,
    redirectUri: row.redirect_uri,
    codeVerifier: row.code_verifier,
    createdAt: toMillis(row.created_at),
    expiresAt: toMillis(row.expires_at),
    ...(row.nonce === null ? {} : { nonce: row.nonce }),
  };
}

export function createPendingSignInStore(db: Kysely<Database>): PendingSignInStore {
  /** Deletes the browser's older pending sign-ins beyond `perBrowser`, `kept` included. */
  const keepNewest = async (kept: PendingSignIn, perBrowser: number): Promise<void> => {
    const newestOthers = db
      .selectFrom('pending_sign_ins')
      .select('state_hash')
      .where('binding_hash', '=', kept.bindingHash)
      .where('state_hash', '!=', kept.stateHash)
      .orderBy('created_at', 'desc')
      .orderBy('state_hash')
      .limit(Math.max(0, perBrowser - 1));
    await db
      .deleteFrom('pending_sign_ins')
      .where('binding_hash', '=', kept.bindingHash)
      .where('state_hash', '!=', kept.stateHash)
      .where('state_hash', 'not in', newestOthers)
      .execute();
  };

  return {
    async save(pending, perBrowser) {
      const row = {
        entry_id: pending.entryId,
        return_to: pending.returnTo,
        binding_hash: pending.bindingHash,
        redirect_uri: pending.redirectUri,
        code_verifier: pending.codeVerifier,
        created_at: pending.createdAt,
        expires_at: pending.expiresAt,
        nonce: pending.nonce ?? null,
      };
      // A key in use is replaced, never a conflict: an entry without ${state}
      // keys its one pending sign-in per browser (pending-key.ts), and a new
      // start there supersedes the earlier one, expired or not.
      await db
        .insertInto('pending_sign_ins')
        .values({ state_hash: pending.stateHash, ...row })
        .onConflict((conflict) => conflict.column('state_hash').doUpdateSet(row))
        .execute();
      if (perBrowser !== undefined) await keepNewest(pending, perBrowser);
    },

    async consume(stateHash) {
      // One statement, so a replayed state finds nothing: DELETE ... RETURNING
      // (SQLite >= 3.35, PostgreSQL) removes and reads the row atomically.
      const row = await db
        .deleteFrom('pending_sign_ins')
        .where('state_hash', '=', stateHash)
        .returning([
          'state_hash',
          'entry_id',
          'return_to',
          'binding_hash',
          'redirect_uri',
          'code_verifier',
          'created_at',
          'expires_at',
          'nonce',
        ])
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    /** A pending sign-in is over at `expiresAt` itself. */
    async deleteExpired(now) {
      const result = await db
        .deleteFrom('pending_sign_ins')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
