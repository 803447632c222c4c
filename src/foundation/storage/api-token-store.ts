import type { Kysely, Selectable } from 'kysely';
import { toMillis, toNullableMillis, touched } from './columns.js';
import type { ApiTokensTable, Database } from './schema.js';
import type { ApiTokenOwner, ApiTokenRecord, ApiTokenStore } from './types.js';

const tokenColumns = [
  'id',
  'name',
  'token_hash',
  'created_at',
  'last_used_at',
  'revoked_at',
  'expires_at',
  'owner_kind',
  'owner_user_row_id',
  'owner_name',
] as const;

function ownerOf(row: Selectable<ApiTokensTable>): ApiTokenOwner | null {
  if (row.owner_kind === 'user' && row.owner_user_row_id !== null && row.owner_name !== null) {
    return { kind: 'user', userRowId: row.owner_user_row_id, userId: row.owner_name };
  }
  if (row.owner_kind === 'service' && row.owner_name !== null) {
    return { kind: 'service', name: row.owner_name };
  }
  return null;
}

function ownerColumns(owner: ApiTokenOwner | undefined) {
  if (owner === undefined) return { owner_kind: null, owner_user_row_id: null, owner_name: null };
  return owner.kind === 'user'
    ? { owner_kind: 'user', owner_user_row_id: owner.userRowId, owner_name: owner.userId }
    : { owner_kind: 'service', owner_user_row_id: null, owner_name: owner.name };
}

function toRecord(row: Selectable<ApiTokensTable>): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    tokenHash: row.token_hash,
    createdAt: toMillis(row.created_at),
    lastUsedAt: toNullableMillis(row.last_used_at),
    revokedAt: toNullableMillis(row.revoked_at),
    expiresAt: toNullableMillis(row.expires_at),
    owner: ownerOf(row),
  };
}

export function createApiTokenStore(db: Kysely<Database>): ApiTokenStore {
  return {
    async create(record) {
      await db
        .insertInto('api_tokens')
        .values({
          id: record.id,
          name: record.name,
          token_hash: record.tokenHash,
          created_at: record.createdAt,
          last_used_at: null,
          revoked_at: null,
          expires_at: record.expiresAt ?? null,
          ...ownerColumns(record.owner),
        })
        .execute();
    },

    async findActiveByHash(tokenHash) {
      const row = await db
        .selectFrom('api_tokens')
        .select(tokenColumns)
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async markUsed(id, at) {
      await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    async list() {
      const rows = await db
        .selectFrom('api_tokens')
        .select(tokenColumns)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    /** False when the token is unknown or already revoked (the first revocation time stays). */
    async revoke(id, at) {
      const result = await db
        .updateTable('api_tokens')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return touched(result);
    },
  };
}
