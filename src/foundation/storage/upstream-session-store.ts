import type { Insertable, Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { toMillis } from './columns.js';
import { compileOnce, oncePerDatabase } from './compile-once.js';
import type { Database, OidcSessionsTable } from './schema.js';
import type {
  SubjectQualifiers,
  UpstreamSessionRecord,
  UpstreamSessionStore,
  UserInfoAccess,
} from './types.js';

/**
 * The save of every OpenID Connect sign-in's callback, compiled once
 * (compile-once.ts). A record already kept for the session is replaced.
 */
const saveQuery = oncePerDatabase((db) =>
  compileOnce((row: Insertable<OidcSessionsTable>) => {
    const replaced = {
      entry_id: row.entry_id,
      subject: row.subject,
      provider_sid: row.provider_sid,
      id_token_sealed: row.id_token_sealed,
      refresh_token_sealed: row.refresh_token_sealed,
      access_sealed: row.access_sealed,
      subject_qualifiers: row.subject_qualifiers,
      checked_at: row.checked_at,
      expires_at: row.expires_at,
    };
    return db
      .insertInto('oidc_sessions')
      .values({ session_hash: row.session_hash, ...replaced })
      .onConflict((conflict) => conflict.column('session_hash').doUpdateSet(replaced));
  }),
);

/**
 * What a provider's sign-in left for its session (an OpenID Connect sign-in's
 * tokens, or an access token to re-check with: types.ts), in a table of its own
 * beside the sessions (migration 0005), so that sessions kept in Redis need
 * no change. The id_token, refresh token and access token are sealed like the entries'
 * secrets: a copy of the database does not hold them readable.
 */
export function createUpstreamSessionStore(
  db: Kysely<Database>,
  secretBox: SecretBox,
): UpstreamSessionStore {
  return {
    async save(record) {
      await saveQuery(db).execute(db, {
        session_hash: record.sessionHash,
        entry_id: record.entryId,
        subject: record.subject,
        provider_sid: record.providerSid,
        id_token_sealed: secretBox.seal(record.idToken),
        refresh_token_sealed:
          record.refreshToken === null ? null : secretBox.seal(record.refreshToken),
        access_sealed:
          record.userInfoAccess === null
            ? null
            : secretBox.seal(JSON.stringify(record.userInfoAccess)),
        subject_qualifiers:
          record.subjectQualifiers === null ? null : JSON.stringify(record.subjectQualifiers),
        checked_at: record.checkedAt,
        expires_at: record.expiresAt,
      });
    },

    async get(sessionHash) {
      const row = await db
        .selectFrom('oidc_sessions')
        .selectAll()
        .where('session_hash', '=', sessionHash)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const record: UpstreamSessionRecord = {
        sessionHash: row.session_hash,
        entryId: row.entry_id,
        subject: row.subject,
        providerSid: row.provider_sid,
        idToken: secretBox.open(row.id_token_sealed),
        refreshToken:
          row.refresh_token_sealed === null ? null : secretBox.open(row.refresh_token_sealed),
        userInfoAccess:
          row.access_sealed === null
            ? null
            : (JSON.parse(secretBox.open(row.access_sealed)) as UserInfoAccess),
        subjectQualifiers:
          row.subject_qualifiers === null
            ? null
            : (JSON.parse(row.subject_qualifiers) as SubjectQualifiers),
        checkedAt: toMillis(row.checked_at),
        expiresAt: toMillis(row.expires_at),
      };
      return record;
    },

    async sessionsOf(entryId, { sid, subject }) {
      let query = db
        .selectFrom('oidc_sessions')
        .select('session_hash')
        .where('entry_id', '=', entryId);
      if (sid !== undefined) query = query.where('provider_sid', '=', sid);
      if (subject !== undefined) query = query.where('subject', '=', subject);
      const rows = await query.execute();
      return rows.map((row) => row.session_hash);
    },

    async checked(sessionHash, at, refreshToken) {
      await db
        .updateTable('oidc_sessions')
        .set({
          checked_at: at,
          ...(refreshToken === undefined
            ? {}
            : { refresh_token_sealed: secretBox.seal(refreshToken) }),
        })
        .where('session_hash', '=', sessionHash)
        .execute();
    },

    async delete(sessionHash) {
      await db.deleteFrom('oidc_sessions').where('session_hash', '=', sessionHash).execute();
    },

    async useOnce(jtiHash, expiresAt) {
      const result = await db
        .insertInto('used_logout_tokens')
        .values({ jti_hash: jtiHash, expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('jti_hash').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async takeOnce(jtiHash) {
      const result = await db
        .deleteFrom('used_logout_tokens')
        .where('jti_hash', '=', jtiHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteExpired(now) {
      const sessions = await db
        .deleteFrom('oidc_sessions')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      await db.deleteFrom('used_logout_tokens').where('expires_at', '<=', now).execute();
      return Number(sessions.numDeletedRows);
    },
  };
}
