import type { Kysely, Selectable } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import {
  parseJsonObject,
  toMillis,
  toNullableMillis,
} from '../../../foundation/storage/columns.js';
import type { ProviderDatabase } from './provider-tables.js';
import type { ProviderSigningKeyStore, SigningKeyRecord } from './types.js';

type KeyRow = Selectable<ProviderDatabase['oidc_signing_keys']>;

/**
 * The signing keys in the database, a private key sealed with the secrets'
 * key; and the key of pairwise subjects, derived from that key.
 */
export function createProviderSigningKeyStore(
  db: Kysely<ProviderDatabase>,
  secretBox: SecretBox,
): ProviderSigningKeyStore {
  const toRecord = (row: KeyRow): SigningKeyRecord => ({
    kid: row.kid,
    publicJwk: parseJsonObject(row.public_jwk, 'public_jwk'),
    privateJwk: parseJsonObject(secretBox.open(row.private_sealed), 'private_sealed'),
    createdAt: toMillis(row.created_at),
    retiredAt: toNullableMillis(row.retired_at),
    publishedUntil: toNullableMillis(row.published_until),
  });
  // Derived once: the same on every instance that shares the secret key,
  // with nothing stored that two instances could race to make.
  const subjectKey = secretBox.derive('ssogate oidc pairwise subjects v1');
  return {
    subjectKey: () => subjectKey,
    async published(now) {
      const rows = await db
        .selectFrom('oidc_signing_keys')
        .selectAll()
        .where((eb) => eb.or([eb('retired_at', 'is', null), eb('published_until', '>', now)]))
        .orderBy('created_at', 'desc')
        .orderBy('kid', 'desc')
        .execute();
      // Those still signing first: a key made in the very millisecond of the
      // one it replaced must still come before it.
      const records = rows.map(toRecord);
      return [
        ...records.filter((key) => key.retiredAt === null),
        ...records.filter((key) => key.retiredAt !== null),
      ];
    },
    async add(key) {
      await db
        .insertInto('oidc_signing_keys')
        .values({
          kid: key.kid,
          public_jwk: JSON.stringify(key.publicJwk),
          private_sealed: secretBox.seal(JSON.stringify(key.privateJwk)),
          created_at: key.createdAt,
          retired_at: key.retiredAt,
          published_until: key.publishedUntil,
        })
        .execute();
    },
    async retireAllBut(kid, at, publishedUntil, options = {}) {
      let update = db
        .updateTable('oidc_signing_keys')
        .set({ retired_at: at, published_until: publishedUntil })
        .where('kid', '!=', kid)
        .where('retired_at', 'is', null);
      if (options.signingAt !== undefined) {
        update = update.where('created_at', '<=', options.signingAt);
      }
      const result = await update.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async unpublishAllBut(kid, now) {
      const retired = await db
        .updateTable('oidc_signing_keys')
        .set({ retired_at: now, published_until: now })
        .where('kid', '!=', kid)
        .where('retired_at', 'is', null)
        .executeTakeFirst();
      const published = await db
        .updateTable('oidc_signing_keys')
        .set({ published_until: now })
        .where('kid', '!=', kid)
        .where('published_until', '>', now)
        .executeTakeFirst();
      return Number(retired.numUpdatedRows) + Number(published.numUpdatedRows);
    },
    async signFrom(kid, at) {
      await db
        .updateTable('oidc_signing_keys')
        .set({ created_at: at })
        .where('kid', '=', kid)
        .execute();
    },
    async deleteUnpublished(now) {
      const result = await db
        .deleteFrom('oidc_signing_keys')
        .where('retired_at', 'is not', null)
        .where('published_until', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
