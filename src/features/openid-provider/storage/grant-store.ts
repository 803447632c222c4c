import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { toMillis } from '../../../foundation/storage/columns.js';
import type { ProviderDatabase } from './provider-tables.js';
import type {
  OidcCodeRecord,
  OidcGrantRecord,
  ProviderGrantStore,
  OidcGrantsMatch,
  OidcRefreshTokenRecord,
} from './types.js';

/**
 * How long a used code is kept after its expiry: as long as a token it was
 * exchanged for lives, so that a replay of it still revokes that token.
 */
const usedCodeKeptMs = 60 * 60_000;

function toCode(row: Selectable<ProviderDatabase['oidc_codes']>): OidcCodeRecord {
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

function toRefreshToken(
  row: Selectable<ProviderDatabase['oidc_refresh_tokens']>,
): OidcRefreshTokenRecord {
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

function toGrant(row: Selectable<ProviderDatabase['oidc_grants']>): OidcGrantRecord {
  return {
    grantId: row.grant_id,
    clientId: row.client_id,
    userRowId: row.user_row_id,
    subject: row.subject,
    entryId: row.entry_id,
    signInHash: row.sign_in_hash,
    sid: row.sid,
    createdAt: toMillis(row.created_at),
    ...(row.acr_values === null ? {} : { acrValues: row.acr_values.split(' ') }),
  };
}

/** The column and value a match of grants is on. */
function matchedBy(
  match: OidcGrantsMatch,
): ['sign_in_hash', string] | ['user_row_id', number] | ['entry_id', string] {
  if ('signInHash' in match) return ['sign_in_hash', match.signInHash];
  if ('userRowId' in match) return ['user_row_id', match.userRowId];
  return ['entry_id', match.entryId];
}

/** The tables of what is used once: a code, a refresh token; and the column of each one's hash. */
const singleUseKeys = { oidc_codes: 'code_hash', oidc_refresh_tokens: 'token_hash' } as const;
type SingleUseTable = keyof typeof singleUseKeys;
type SingleUseColumns = Pick<
  ProviderDatabase['oidc_codes'],
  'code_hash' | 'client_id' | 'used_at' | 'expires_at'
>;

/** What presenting or looking up a code or refresh token finds: a row of the table, or nothing. */
type SingleUseFound<T extends SingleUseTable, Outcome extends string> =
  | { readonly outcome: Outcome | 'replayed'; readonly row: Selectable<ProviderDatabase[T]> }
  | { readonly outcome: 'unknown' };

/** A code or refresh token a client presents: its table, its hash. */
interface Presented<T extends SingleUseTable> {
  readonly table: T;
  readonly hash: string;
  readonly clientId: string;
}

/**
 * The queries of the client's row of the presented code or refresh token.
 * Both tables have these columns alike; the builder is told of one shape,
 * whichever table is named, and the rows read back are that table's (rowOf).
 */
function presentedRow(
  db: Kysely<ProviderDatabase>,
  { table, hash, clientId }: Presented<SingleUseTable>,
) {
  const single = db as unknown as Kysely<{ oidc_codes: SingleUseColumns }>;
  const name = table as 'oidc_codes';
  const key = singleUseKeys[table] as 'code_hash';
  return {
    update: () => single.updateTable(name).where(key, '=', hash).where('client_id', '=', clientId),
    select: () =>
      single.selectFrom(name).selectAll().where(key, '=', hash).where('client_id', '=', clientId),
  };
}

function rowOf<T extends SingleUseTable>(row: object): Selectable<ProviderDatabase[T]> {
  return row as unknown as Selectable<ProviderDatabase[T]>;
}

/**
 * Presents a code or refresh token of a client: marks it used if it is
 * unused and unexpired, in one statement (UPDATE ... WHERE used_at IS NULL
 * RETURNING), so that of two presentations at once one alone redeems it;
 * else finds it used before (a replay), or nothing of this client's.
 */
async function redeemOnce<T extends SingleUseTable>(
  db: Kysely<ProviderDatabase>,
  presented: Presented<T>,
  now: number,
): Promise<SingleUseFound<T, 'redeemed'>> {
  const row = presentedRow(db, presented);
  const redeemed = await row
    .update()
    .set({ used_at: now })
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (redeemed !== undefined) return { outcome: 'redeemed', row: rowOf<T>(redeemed) };
  const used = await row.select().where('used_at', 'is not', null).executeTakeFirst();
  return used === undefined ? { outcome: 'unknown' } : { outcome: 'replayed', row: rowOf<T>(used) };
}

/**
 * Looks up a code or refresh token of a client without using it: unused
 * and unexpired, used before (a replay), or nothing of this client's.
 */
async function lookUp<T extends SingleUseTable>(
  db: Kysely<ProviderDatabase>,
  presented: Presented<T>,
  now: number,
): Promise<SingleUseFound<T, 'unused'>> {
  const found = await presentedRow(db, presented).select().executeTakeFirst();
  if (found === undefined) return { outcome: 'unknown' };
  const row = rowOf<T>(found);
  if (found.used_at !== null) return { outcome: 'replayed', row };
  return toMillis(found.expires_at) > now ? { outcome: 'unused', row } : { outcome: 'unknown' };
}

/** The rows of a code or refresh token of the grant a query of grants is at. */
function grantRowsIn(
  eb: ExpressionBuilder<ProviderDatabase, 'oidc_grants'>,
  table: SingleUseTable,
) {
  return eb
    .selectFrom(table)
    .select(`${table}.grant_id`)
    .whereRef(`${table}.grant_id`, '=', 'oidc_grants.grant_id');
}

/** A code found, as the store answers it. */
function asCode<Outcome extends string>(found: SingleUseFound<'oidc_codes', Outcome>) {
  return 'row' in found ? { outcome: found.outcome, code: toCode(found.row) } : found;
}

/** A refresh token found, as the store answers it. */
function asRefreshToken<Outcome extends string>(
  found: SingleUseFound<'oidc_refresh_tokens', Outcome>,
) {
  return 'row' in found ? { outcome: found.outcome, token: toRefreshToken(found.row) } : found;
}

/**
 * The OpenID Provider's codes, tokens and grants in the database, shared by
 * every instance. Over a transaction (writeTogether's), its writes are that
 * transaction's: none opens another.
 */
export function createProviderGrantStore(db: Kysely<ProviderDatabase>): ProviderGrantStore {
  // Kysely opens no transaction inside another: within one, its writes join it.
  const together = <T>(work: (trx: Kysely<ProviderDatabase>) => Promise<T>): Promise<T> =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  return {
    writeTogether(work) {
      return together((trx) => work(createProviderGrantStore(trx)));
    },
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
    async findCode(codeHash, clientId, now) {
      return asCode(await lookUp(db, { table: 'oidc_codes', hash: codeHash, clientId }, now));
    },
    async redeemCode(codeHash, clientId, now) {
      return asCode(await redeemOnce(db, { table: 'oidc_codes', hash: codeHash, clientId }, now));
    },
    async addTokens(grantId, tokens, now) {
      return together(async (trx) => {
        // The write first: it takes the grant's row (PostgreSQL's row lock,
        // SQLite's one writer), so a revocation either came first and
        // nothing is added, or waits for this commit and finds what it adds.
        const taken = await trx
          .updateTable('oidc_grants')
          .set({ last_issued_at: now })
          .where('grant_id', '=', grantId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (taken.numUpdatedRows === 0n) return false;
        const { access, refresh } = tokens;
        await trx
          .insertInto('oidc_access_tokens')
          .values({
            token_hash: access.tokenHash,
            grant_id: grantId,
            client_id: access.clientId,
            user_row_id: access.userRowId,
            scope: access.scope,
            expires_at: access.expiresAt,
          })
          .execute();
        if (refresh !== undefined) {
          await trx
            .insertInto('oidc_refresh_tokens')
            .values({
              token_hash: refresh.tokenHash,
              grant_id: grantId,
              client_id: refresh.clientId,
              user_row_id: refresh.userRowId,
              scope: refresh.scope,
              entry_id: refresh.entryId,
              auth_time: refresh.authTime,
              expires_at: refresh.expiresAt,
              used_at: null,
            })
            .execute();
        }
        return true;
      });
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
    async findRefreshToken(tokenHash, clientId, now) {
      return asRefreshToken(
        await lookUp(db, { table: 'oidc_refresh_tokens', hash: tokenHash, clientId }, now),
      );
    },
    async redeemRefreshToken(tokenHash, clientId, now) {
      return asRefreshToken(
        await redeemOnce(db, { table: 'oidc_refresh_tokens', hash: tokenHash, clientId }, now),
      );
    },
    async revokeGrant(grantId, now) {
      return together(async (trx) => {
        // The mark first: tokens being added at this moment (addTokens)
        // either are in before it, and removed below, or are refused.
        await trx
          .updateTable('oidc_grants')
          .set({ revoked_at: now })
          .where('grant_id', '=', grantId)
          .where('revoked_at', 'is', null)
          .execute();
        const access = await trx
          .deleteFrom('oidc_access_tokens')
          .where('grant_id', '=', grantId)
          .executeTakeFirst();
        // Spent, not deleted: each stays until it expires, so presenting it
        // later is seen as the replay it is.
        const refresh = await trx
          .updateTable('oidc_refresh_tokens')
          .set({ used_at: now })
          .where('grant_id', '=', grantId)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        return Number(access.numDeletedRows) + Number(refresh.numUpdatedRows);
      });
    },
    async addGrant(grant) {
      await db
        .insertInto('oidc_grants')
        .values({
          grant_id: grant.grantId,
          client_id: grant.clientId,
          user_row_id: grant.userRowId,
          subject: grant.subject,
          entry_id: grant.entryId,
          sign_in_hash: grant.signInHash,
          sid: grant.sid,
          created_at: grant.createdAt,
          revoked_at: null,
          last_issued_at: null,
          acr_values:
            grant.acrValues === undefined || grant.acrValues.length === 0
              ? null
              : grant.acrValues.join(' '),
        })
        .execute();
    },
    async grant(grantId) {
      const row = await db
        .selectFrom('oidc_grants')
        .selectAll()
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row === undefined ? undefined : toGrant(row);
    },
    async endGrants(match) {
      const [column, value] = matchedBy(match);
      // One transaction: no grant goes without its tokens.
      return together(async (trx) => {
        // The claim: whoever deletes a grant's row is the one that tells its client.
        const ended = await trx
          .deleteFrom('oidc_grants')
          .where(column, '=', value)
          .returningAll()
          .execute();
        if (ended.length === 0) return [];
        const grantIds = ended.map((row) => row.grant_id);
        await trx.deleteFrom('oidc_access_tokens').where('grant_id', 'in', grantIds).execute();
        await trx.deleteFrom('oidc_refresh_tokens').where('grant_id', 'in', grantIds).execute();
        return ended.map(toGrant);
      });
    },
    async signInsWithGrants(after, limit) {
      const rows = await db
        .selectFrom('oidc_grants')
        .select('sign_in_hash')
        .distinct()
        .where('sign_in_hash', '>', after)
        .orderBy('sign_in_hash')
        .limit(limit)
        .execute();
      return rows.map((row) => row.sign_in_hash);
    },
    async deleteExpired(now) {
      await db.deleteFrom('oidc_access_tokens').where('expires_at', '<=', now).execute();
      await db.deleteFrom('oidc_refresh_tokens').where('expires_at', '<=', now).execute();
      await db
        .deleteFrom('oidc_codes')
        .where('expires_at', '<=', now - usedCodeKeptMs)
        .execute();
      // A revoked grant goes once the last code and refresh token that could
      // be presented again have: until then its mark refuses new tokens.
      await db
        .deleteFrom('oidc_grants')
        .where('revoked_at', 'is not', null)
        .where((eb) => eb.not(eb.exists(grantRowsIn(eb, 'oidc_refresh_tokens'))))
        .where((eb) => eb.not(eb.exists(grantRowsIn(eb, 'oidc_codes'))))
        .execute();
    },
  };
}
