import type { Insertable, Kysely, Selectable } from 'kysely';
import { compileOnce, oncePerDatabase } from './compile-once.js';
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
    ...(row.handoff_host === null || row.handoff_sign_in === null
      ? {}
      : {
          handoff: {
            host: row.handoff_host,
            signInHash: row.handoff_sign_in,
            userId: row.handoff_user,
          },
        }),
  };
}

const pendingColumns = [
  'state_hash',
  'entry_id',
  'return_to',
  'binding_hash',
  'redirect_uri',
  'code_verifier',
  'created_at',
  'expires_at',
  'nonce',
  'handoff_host',
  'handoff_sign_in',
  'handoff_user',
] as const;

/** The queries of every sign-in start and callback, compiled once (compile-once.ts). */
const hotQueries = oncePerDatabase((db) => ({
  // A key in use is replaced, never a conflict: an entry without ${state}
  // keys its one pending sign-in per browser (pending-key.ts), and a new
  // start there supersedes the earlier one, expired or not.
  save: compileOnce((row: Insertable<PendingSignInsTable>) => {
    const replaced = {
      entry_id: row.entry_id,
      return_to: row.return_to,
      binding_hash: row.binding_hash,
      redirect_uri: row.redirect_uri,
      code_verifier: row.code_verifier,
      created_at: row.created_at,
      expires_at: row.expires_at,
      nonce: row.nonce,
      handoff_host: row.handoff_host,
      handoff_sign_in: row.handoff_sign_in,
      handoff_user: row.handoff_user,
    };
    return db
      .insertInto('pending_sign_ins')
      .values({ state_hash: row.state_hash, ...replaced })
      .onConflict((conflict) => conflict.column('state_hash').doUpdateSet(replaced));
  }),
  /** How many pending sign-ins the browser has besides `kept`: an index lookup (PostgreSQL's count is text). */
  countOthers: compileOnce((values: { binding: string; kept: string }) =>
    db
      .selectFrom('pending_sign_ins')
      .select((eb) => eb.fn.countAll<number | string>().as('others'))
      .where('binding_hash', '=', values.binding)
      .where('state_hash', '!=', values.kept),
  ),
  /** Deletes the browser's older pending sign-ins beyond `others` besides `kept`. */
  keepNewest: compileOnce((values: { binding: string; kept: string; others: number }) =>
    db
      .deleteFrom('pending_sign_ins')
      .where('binding_hash', '=', values.binding)
      .where('state_hash', '!=', values.kept)
      .where(
        'state_hash',
        'not in',
        db
          .selectFrom('pending_sign_ins')
          .select('state_hash')
          .where('binding_hash', '=', values.binding)
          .where('state_hash', '!=', values.kept)
          .orderBy('created_at', 'desc')
          .orderBy('state_hash')
          .limit(values.others),
      ),
  ),
  // One statement, so a replayed state finds nothing: DELETE ... RETURNING
  // (SQLite >= 3.35, PostgreSQL) removes and reads the row atomically.
  consume: compileOnce((values: { stateHash: string }) =>
    db
      .deleteFrom('pending_sign_ins')
      .where('state_hash', '=', values.stateHash)
      .returning(pendingColumns),
  ),
}));

/**
 * A save is its insert, then, with a cap, a count of the browser's others,
 * each a statement of its own: the insert is the one write a start commits
 * (a transaction around it and the count would add its BEGIN and COMMIT,
 * and commit no less), and the pruning, when the count calls for it, is a
 * second.
 */
export function createPendingSignInStore(db: Kysely<Database>): PendingSignInStore {
  const queries = hotQueries(db);
  return {
    async save(pending, perBrowser) {
      await queries.save.execute(db, {
        state_hash: pending.stateHash,
        entry_id: pending.entryId,
        return_to: pending.returnTo,
        binding_hash: pending.bindingHash,
        redirect_uri: pending.redirectUri,
        code_verifier: pending.codeVerifier,
        created_at: pending.createdAt,
        expires_at: pending.expiresAt,
        nonce: pending.nonce ?? null,
        handoff_host: pending.handoff?.host ?? null,
        handoff_sign_in: pending.handoff?.signInHash ?? null,
        handoff_user: pending.handoff?.userId ?? null,
      });
      if (perBrowser === undefined) return;
      const others = Math.max(0, perBrowser - 1);
      const browser = { binding: pending.bindingHash, kept: pending.stateHash };
      // Nearly every start finds the browser under its limit (a first sign-in
      // has no other at all): counting first spares the pruning's sorted
      // subquery, which cost more than the insert.
      const { rows } = await queries.countOthers.execute(db, browser);
      if (Number(rows[0]?.others ?? 0) <= others) return;
      await queries.keepNewest.execute(db, { ...browser, others });
    },

    async consume(stateHash) {
      const { rows } = await queries.consume.execute(db, { stateHash });
      const row = rows[0];
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
