import type { Kysely, Selectable } from 'kysely';
import { toMillis } from './columns.js';
import type { Database } from './schema.js';
import type { OidcCodeRecord, OidcGrantStore, OidcRefreshTokenRecord } from './types.js';

/**
 * How long a used code is kept after its expiry: as long as a token it was
 * exchanged for lives, so that a replay of it still revokes that token.
 */
const usedCodeKeptMs = 60 * 60_000;

function toCode(row: Selectable<Database['oidc_codes']>): OidcCodeRecord {
  return {
    codeHash: row.code_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    nonce: row.nonce,
    scope: row.scope,
    userRowId: row.user_row_id,
    entryId: row.entry_id,
    authTime: toMillis(row.auth_time),
    expiresAt: toMillis(row.expires_at),
  };
}

function toRefreshToken(row: Selectable<Database['oidc_refresh_tokens']>): OidcRefreshTokenRecord {
  return {
    tokenHash: row.token_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    userRowId: row.user_row_id,
    scope: row.scope,
    entryId: row.entry_id,
    authTime: toMillis(row.auth_time),
    expiresAt: toMillis(row.expires_at),
  };
}

/** The OpenID Provider's codes and access tokens in the database, shared by every instance. */
export function createOidcGrantStore(db: Kysely<Database>): OidcGrantStore {
  return {
    async addCode(code) {
      await db
        .insertInto('oidc_codes')
        .values({
          code_hash: code.codeHash,
          grant_id: code.grantId,
          client_id: code.clientId,
          redirect_uri: code.redirectUri,
          code_challenge: code.codeChallenge,
          nonce: code.nonce,
          scope: code.scope,
          user_row_id: code.userRowId,
          entry_id: code.entryId,
          auth_time: code.authTime,
          expires_at: code.expiresAt,
          used_at: null,
        })
        .execute();
    },
    async redeemCode(codeHash, clientId, now) {
      const redeemed = await db
        .updateTable('oidc_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('client_id', '=', clientId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (redeemed !== undefined) return { outcome: 'redeemed', code: toCode(redeemed) };
      const used = await db
        .selectFrom('oidc_codes')
        .selectAll()
        .where('code_hash', '=', codeHash)
        .where('client_id', '=', clientId)
        .where('used_at', 'is not', null)
        .executeTakeFirst();
      return used === undefined
        ? { outcome: 'unknown' }
        : { outcome: 'replayed', code: toCode(used) };
    },
    async addAccessToken(token) {
      await db
        .insertInto('oidc_access_tokens')
        .values({
          token_hash: token.tokenHash,
          grant_id: token.grantId,
          client_id: token.clientId,
          user_row_id: token.userRowId,
          scope: token.scope,
          expires_at: token.expiresAt,
        })
        .execute();
    },
    async accessToken(tokenHash, now) {
      const row = await db
        .selectFrom('oidc_access_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        tokenHash: row.token_hash,
        grantId: row.grant_id,
        clientId: row.client_id,
        userRowId: row.user_row_id,
        scope: row.scope,
        expiresAt: toMillis(row.expires_at),
      };
    },
    async liveScopes(clientId, userRowId, now) {
      const scopesIn = (table: 'oidc_access_tokens' | 'oidc_refresh_tokens') =>
        db
          .selectFrom(table)
          .select('scope')
          .distinct()
          .where('client_id', '=', clientId)
          .where('user_row_id', '=', userRowId)
          .where('expires_at', '>', now);
      const [access, refresh] = await Promise.all([
        scopesIn('oidc_access_tokens').execute(),
        // A refresh token used is spent: its successor, if any, is unused.
        scopesIn('oidc_refresh_tokens').where('used_at', 'is', null).execute(),
      ]);
      return [...new Set([...access, ...refresh].map((row) => row.scope))];
    },
    async addRefreshToken(token) {
      await db
        .insertInto('oidc_refresh_tokens')
        .values({
          token_hash: token.tokenHash,
          grant_id: token.grantId,
          client_id: token.clientId,
          user_row_id: token.userRowId,
          scope: token.scope,
          entry_id: token.entryId,
          auth_time: token.authTime,
          expires_at: token.expiresAt,
          used_at: null,
        })
        .execute();
    },
    async redeemRefreshToken(tokenHash, clientId, now) {
      const redeemed = await db
        .updateTable('oidc_refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('client_id', '=', clientId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (redeemed !== undefined) return { outcome: 'redeemed', token: toRefreshToken(redeemed) };
      const used = await db
        .selectFrom('oidc_refresh_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('client_id', '=', clientId)
        .where('used_at', 'is not', null)
        .executeTakeFirst();
      return used === undefined
        ? { outcome: 'unknown' }
        : { outcome: 'replayed', token: toRefreshToken(used) };
    },
    async revokeGrant(grantId) {
      const access = await db
        .deleteFrom('oidc_access_tokens')
        .where('grant_id', '=', grantId)
        .executeTakeFirst();
      const refresh = await db
        .deleteFrom('oidc_refresh_tokens')
        .where('grant_id', '=', grantId)
        .executeTakeFirst();
      return Number(access.numDeletedRows) + Number(refresh.numDeletedRows);
    },
    async deleteExpired(now) {
      await db.deleteFrom('oidc_access_tokens').where('expires_at', '<=', now).execute();
      await db.deleteFrom('oidc_refresh_tokens').where('expires_at', '<=', now).execute();
      await db
        .deleteFrom('oidc_codes')
        .where('expires_at', '<=', now - usedCodeKeptMs)
        .execute();
    },
  };
}
