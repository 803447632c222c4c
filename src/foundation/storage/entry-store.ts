import type { Kysely, Selectable } from 'kysely';
import { entryInput } from '../../core/index.js';
import type { EntryInput } from '../../core/index.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { fromFlag, parseJsonObject, toFlag, toMillis, touched } from './columns.js';
import type { Database, EntriesTable } from './schema.js';
import type { EntryRecord, EntryStore } from './types.js';

/** Fields kept in columns of their own, never in the definition JSON. */
const columnFields: ReadonlySet<string> = new Set([
  'id',
  'isDefault',
  'appsecret',
  'extensionSecret',
]);

const entryColumns = [
  'id',
  'definition',
  'appsecret_sealed',
  'extension_secret_sealed',
  'position',
  'is_default',
  'created_at',
  'updated_at',
] as const;

/**
 * The definition without id, isDefault and appsecret: the secret is sealed
 * into its own column, and isDefault lives in a column so that making one
 * entry the default can clear the others without rewriting their JSON.
 */
function definitionOf(input: EntryInput): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(input).filter(([key]) => !columnFields.has(key))),
  );
}

function toRecord(row: Selectable<EntriesTable>, secretBox: SecretBox): EntryRecord {
  const definition = Object.entries(parseJsonObject(row.definition, 'entries.definition')).filter(
    ([key]) => !columnFields.has(key),
  );
  const assembled = {
    ...Object.fromEntries(definition),
    id: row.id,
    isDefault: fromFlag(row.is_default),
    ...(row.appsecret_sealed === null ? {} : { appsecret: secretBox.open(row.appsecret_sealed) }),
    ...(row.extension_secret_sealed === null
      ? {}
      : { extensionSecret: secretBox.open(row.extension_secret_sealed) }),
  };
  // Parsing again yields a fresh plain object of the current shape, and
  // catches a stored definition that this version can no longer read.
  const parsed = entryInput.safeParse(assembled);
  if (!parsed.success) {
    throw new Error(`The stored entry "${row.id}" does not match the entry schema.`, {
      cause: parsed.error,
    });
  }
  return {
    input: parsed.data,
    position: row.position,
    createdAt: toMillis(row.created_at),
    updatedAt: toMillis(row.updated_at),
  };
}

export function createEntryStore(db: Kysely<Database>, secretBox: SecretBox): EntryStore {
  const seal = (secret: string | undefined) =>
    secret === undefined ? null : secretBox.seal(secret);

  return {
    async list() {
      const rows = await db
        .selectFrom('entries')
        .select(entryColumns)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map((row) => toRecord(row, secretBox));
    },

    async get(id) {
      const row = await db
        .selectFrom('entries')
        .select(entryColumns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row, secretBox);
    },

    create(input, at) {
      return db.transaction().execute(async (trx) => {
        const { last } = await trx
          .selectFrom('entries')
          .select((eb) => eb.fn.max<number | null>('position').as('last'))
          .executeTakeFirstOrThrow();
        const inserted = await trx
          .insertInto('entries')
          .values({
            id: input.id,
            definition: definitionOf(input),
            appsecret_sealed: seal(input.appsecret),
            extension_secret_sealed: seal(input.extensionSecret),
            position: (last ?? 0) + 1,
            is_default: toFlag(input.isDefault === true),
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted === undefined) return false;
        if (input.isDefault === true) await clearOtherDefaults(trx, input.id);
        return true;
      });
    },

    async update(id, input, at, secret = 'keep') {
      if (input.id !== id) throw new Error(`An entry's id cannot change (${id} -> ${input.id}).`);
      return await db.transaction().execute(async (trx) => {
        const keepSecret = input.appsecret === undefined && secret === 'keep';
        const result = await trx
          .updateTable('entries')
          .set({
            definition: definitionOf(input),
            is_default: toFlag(input.isDefault === true),
            updated_at: at,
            ...(keepSecret ? {} : { appsecret_sealed: seal(input.appsecret) }),
            extension_secret_sealed: seal(input.extensionSecret),
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (!touched(result)) return false;
        if (input.isDefault === true) await clearOtherDefaults(trx, id);
        return true;
      });
    },

    async delete(id) {
      return touched(await db.deleteFrom('entries').where('id', '=', id).executeTakeFirst());
    },

    reorder(ids) {
      return db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('entries').select('id').execute();
        const stored = new Set(rows.map((row) => row.id));
        if (new Set(ids).size !== ids.length || ids.length !== stored.size) return false;
        if (!ids.every((id) => stored.has(id))) return false;
        // The order is not part of an entry's definition: updated_at stays.
        for (const [index, id] of ids.entries()) {
          await trx
            .updateTable('entries')
            .set({ position: index + 1 })
            .where('id', '=', id)
            .execute();
        }
        return true;
      });
    },

    async hasSecret(id) {
      const row = await db
        .selectFrom('entries')
        .select('appsecret_sealed')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.appsecret_sealed != null;
    },
  };
}

/** At most one default entry (docs/design.md#the-entry). */
async function clearOtherDefaults(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('entries')
    .set({ is_default: 0 })
    .where('id', '!=', id)
    .where('is_default', '=', 1)
    .execute();
}
