import type { Kysely, Selectable } from 'kysely';
import { toMillis, touched } from '../../../foundation/storage/columns.js';
import type { ProviderDatabase } from './provider-tables.js';
import type { OidcClientRecord, OidcClientSettings, ProviderClientStore } from './types.js';

type ClientRow = Selectable<ProviderDatabase['oidc_clients']>;

function texts(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new Error(`The settings of an OpenID client hold no list of text in ${field}.`);
  }
  return value;
}

/**
 * The settings column read back key by key from the fixed list, so nothing
 * else stored there (a key from a later version, `__proto__`) reaches the
 * record.
 */
function settingsOf(text: string): OidcClientSettings {
  const value = JSON.parse(text) as Record<string, unknown>;
  const name = value.name;
  const logoutUri = value.backchannelLogoutUri;
  const frontchannelUri = value.frontchannelLogoutUri;
  return {
    name: typeof name === 'string' ? name : '',
    redirectUris: texts(value.redirectUris, 'redirectUris'),
    postLogoutRedirectUris: texts(value.postLogoutRedirectUris, 'postLogoutRedirectUris'),
    backchannelLogoutUri: typeof logoutUri === 'string' ? logoutUri : null,
    frontchannelLogoutUri: typeof frontchannelUri === 'string' ? frontchannelUri : null,
    frontchannelLogoutSessionRequired: value.frontchannelLogoutSessionRequired === true,
    allowedEntries: texts(value.allowedEntries, 'allowedEntries'),
    allowedUsers: texts(value.allowedUsers, 'allowedUsers'),
    allowedGroups: texts(value.allowedGroups, 'allowedGroups'),
    refreshTokens: value.refreshTokens === true,
    // Clients saved before these settings existed keep what they had: public, no page.
    subjectType: value.subjectType === 'pairwise' ? 'pairwise' : 'public',
    consent: value.consent === true,
  };
}

/** The settings as stored: only the known keys, whatever else the object carries. */
function settingsText(settings: OidcClientSettings): string {
  const known: OidcClientSettings = {
    name: settings.name,
    redirectUris: settings.redirectUris,
    postLogoutRedirectUris: settings.postLogoutRedirectUris,
    backchannelLogoutUri: settings.backchannelLogoutUri,
    frontchannelLogoutUri: settings.frontchannelLogoutUri,
    frontchannelLogoutSessionRequired: settings.frontchannelLogoutSessionRequired,
    allowedEntries: settings.allowedEntries,
    allowedUsers: settings.allowedUsers,
    allowedGroups: settings.allowedGroups,
    refreshTokens: settings.refreshTokens,
    subjectType: settings.subjectType,
    consent: settings.consent,
  };
  return JSON.stringify(known);
}

function toRecord(row: ClientRow): OidcClientRecord {
  return {
    clientId: row.client_id,
    secretHash: row.secret_hash,
    ...settingsOf(row.settings),
    createdAt: toMillis(row.created_at),
    updatedAt: toMillis(row.updated_at),
  };
}

/** The OpenID Provider's clients in the database, shared by every instance. */
export function createProviderClientStore(db: Kysely<ProviderDatabase>): ProviderClientStore {
  return {
    async create(record) {
      const result = await db
        .insertInto('oidc_clients')
        .values({
          client_id: record.clientId,
          secret_hash: record.secretHash,
          settings: settingsText(record),
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        })
        .onConflict((conflict) => conflict.column('client_id').doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async get(clientId) {
      const row = await db
        .selectFrom('oidc_clients')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
    async list() {
      const rows = await db.selectFrom('oidc_clients').selectAll().orderBy('client_id').execute();
      return rows.map(toRecord);
    },
    async update(clientId, settings, at) {
      const result = await db
        .updateTable('oidc_clients')
        .set({ settings: settingsText(settings), updated_at: at })
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return touched(result);
    },
    async replaceSecretHash(clientId, secretHash, at) {
      const result = await db
        .updateTable('oidc_clients')
        .set({ secret_hash: secretHash, updated_at: at })
        .where('client_id', '=', clientId)
        .where('secret_hash', 'is not', null)
        .executeTakeFirst();
      return touched(result);
    },
    async delete(clientId) {
      // Its grants, codes and tokens go with it, so a client made again under
      // the same id inherits no grant, refresh token or remembered consent.
      // Its grants end without a logout token: the client is gone, and with
      // it the URI one would go to.
      const tables = [
        'oidc_grants',
        'oidc_codes',
        'oidc_access_tokens',
        'oidc_refresh_tokens',
      ] as const;
      return db.transaction().execute(async (trx) => {
        for (const table of tables) {
          await trx.deleteFrom(table).where('client_id', '=', clientId).execute();
        }
        const result = await trx
          .deleteFrom('oidc_clients')
          .where('client_id', '=', clientId)
          .executeTakeFirst();
        return touched(result);
      });
    },
  };
}
