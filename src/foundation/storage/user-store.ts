import { sql } from 'kysely';
import type { Insertable, Kysely, Selectable, SqlBool, Updateable } from 'kysely';
import { SsogateError } from '../../core/index.js';
import {
  fromFlag,
  likeContains,
  parseJsonObject,
  toCount,
  toFlag,
  toMillis,
  toNullableMillis,
  touched,
} from './columns.js';
import { compileOnce, oncePerDatabase } from './compile-once.js';
import type { Database, SqlDialect, UsersTable } from './schema.js';
import type { UserAttributes, UserRecord, UserStore } from './types.js';

const userColumns = [
  'id',
  'user_id',
  'source_entry_id',
  'user_name',
  'email',
  'mobile',
  'department',
  'enabled',
  'is_admin',
  'password_hash',
  'extra',
  'group_names',
  'created_at',
  'updated_at',
  'last_sign_in_at',
] as const;

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    userId: row.user_id,
    sourceEntryId: row.source_entry_id,
    userName: row.user_name,
    email: row.email,
    mobile: row.mobile,
    department: row.department,
    enabled: fromFlag(row.enabled),
    isAdmin: fromFlag(row.is_admin),
    passwordHash: row.password_hash,
    extra: parseJsonObject(row.extra, 'users.extra'),
    groups: parseGroups(row.group_names),
    createdAt: toMillis(row.created_at),
    updatedAt: toMillis(row.updated_at),
    lastSignInAt: toNullableMillis(row.last_sign_in_at),
  };
}

/** Only the attributes given; an undefined one leaves its column as it is. */
function attributeChanges(attributes: UserAttributes, at: number): Updateable<UsersTable> {
  const changes: Updateable<UsersTable> = { updated_at: at };
  if (attributes.userName !== undefined) changes.user_name = attributes.userName;
  if (attributes.email !== undefined) changes.email = attributes.email;
  if (attributes.mobile !== undefined) changes.mobile = attributes.mobile;
  if (attributes.department !== undefined) changes.department = attributes.department;
  if (attributes.enabled !== undefined) changes.enabled = toFlag(attributes.enabled);
  if (attributes.extra !== undefined) changes.extra = JSON.stringify(attributes.extra);
  if (attributes.groups !== undefined) changes.group_names = JSON.stringify(attributes.groups);
  if (attributes.isAdmin !== undefined) changes.is_admin = toFlag(attributes.isAdmin);
  return changes;
}

function parseGroups(text: string | null): string[] {
  if (text === null) return [];
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new Error('The users.group_names column does not hold a JSON array of text.');
  }
  return value;
}

/** The queries of every sign-in and session check, compiled once (compile-once.ts). */
const hotQueries = oncePerDatabase((db) => ({
  byId: compileOnce((values: { id: number }) =>
    db.selectFrom('users').select(userColumns).where('id', '=', values.id),
  ),
  byUserId: compileOnce((values: { userId: string }) =>
    db.selectFrom('users').select(userColumns).where('user_id', '=', values.userId),
  ),
  // ON CONFLICT DO NOTHING on the unique user_id: of two racing first
  // sign-ins, one inserts and the other reads the row the first made.
  insertIfAbsent: compileOnce((row: Insertable<UsersTable>) =>
    db
      .insertInto('users')
      .values({
        user_id: row.user_id,
        source_entry_id: row.source_entry_id,
        user_name: row.user_name,
        email: row.email,
        mobile: row.mobile,
        department: row.department,
        enabled: row.enabled,
        is_admin: row.is_admin,
        password_hash: row.password_hash,
        extra: row.extra,
        group_names: row.group_names,
        created_at: row.created_at,
        updated_at: row.updated_at,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning(userColumns),
  ),
  // Not an attribute change, so updated_at stays.
  recordSignIn: compileOnce((values: { id: number; at: number }) =>
    db.updateTable('users').set({ last_sign_in_at: values.at }).where('id', '=', values.id),
  ),
  findForSignIn: compileOnce((values: { userId: string; at: number }) =>
    db
      .updateTable('users')
      .set({ last_sign_in_at: values.at })
      .where('user_id', '=', values.userId)
      .returning(userColumns),
  ),
}));

export function createUserStore(db: Kysely<Database>, dialect: SqlDialect): UserStore {
  const queries = hotQueries(db);
  const findBy = async (column: 'id' | 'user_id', value: number | string) => {
    const { rows } =
      column === 'id'
        ? await queries.byId.execute(db, { id: value as number })
        : await queries.byUserId.execute(db, { userId: value as string });
    const row = rows[0];
    return row === undefined ? undefined : toRecord(row);
  };

  const setColumns = async (id: number, changes: Updateable<UsersTable>) =>
    touched(await db.updateTable('users').set(changes).where('id', '=', id).executeTakeFirst());

  return {
    get: (id) => findBy('id', id),
    findByUserId: (userId) => findBy('user_id', userId),
    async findForSignIn(userId, at) {
      const { rows } = await queries.findForSignIn.execute(db, { userId, at });
      const row = rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async insertIfAbsent(user, at) {
      const inserted = await queries.insertIfAbsent.execute(db, {
        user_id: user.userId,
        source_entry_id: user.sourceEntryId,
        user_name: user.userName ?? null,
        email: user.email ?? null,
        mobile: user.mobile ?? null,
        department: user.department ?? null,
        enabled: toFlag(user.enabled ?? true),
        is_admin: toFlag(user.isAdmin ?? false),
        password_hash: user.passwordHash ?? null,
        extra: JSON.stringify(user.extra ?? {}),
        group_names: user.groups === undefined ? null : JSON.stringify(user.groups),
        created_at: at,
        updated_at: at,
      });
      // The row as inserted, read back by the insert itself; a row another
      // sign-in made first is read after.
      const row = inserted.rows[0];
      if (row !== undefined) return { user: toRecord(row), created: true };
      const record = await findBy('user_id', user.userId);
      if (record === undefined) throw new Error(`User "${user.userId}" vanished after insert.`);
      return { user: record, created: false };
    },

    async updateAttributes(id, attributes, at) {
      const row = await db
        .updateTable('users')
        .set(attributeChanges(attributes, at))
        .where('id', '=', id)
        .returning(userColumns)
        .executeTakeFirst();
      if (row === undefined) throw new SsogateError('not_found', `No user has row id ${id}.`);
      return toRecord(row);
    },

    async recordSignIn(id, at) {
      await queries.recordSignIn.execute(db, { id, at });
    },
    setEnabled: (id, enabled, at) => setColumns(id, { enabled: toFlag(enabled), updated_at: at }),
    setAdmin: (id, isAdmin, at) => setColumns(id, { is_admin: toFlag(isAdmin), updated_at: at }),
    setPasswordHash: (id, passwordHash, at) =>
      setColumns(id, { password_hash: passwordHash, updated_at: at }),

    async list(query) {
      let select = db.selectFrom('users');
      if (query.search !== undefined && query.search !== '') {
        const pattern = likeContains(query.search.toLowerCase());
        // lower() + LIKE ... ESCAPE reads the same in SQLite and PostgreSQL
        // (SQLite's lower() folds ASCII letters only).
        select = select.where((eb) =>
          eb.or(
            (['user_id', 'user_name', 'email'] as const).map(
              (column) => sql<SqlBool>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`,
            ),
          ),
        );
      }
      const [rows, count] = await Promise.all([
        select.select(userColumns).orderBy('id').limit(query.limit).offset(query.offset).execute(),
        select.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { users: rows.map(toRecord), total: toCount(count.total) };
    },

    removeAdminAccess(id, change, at) {
      return db.transaction().execute(async (trx) => {
        // The enabled administrators and the user to change, together, locked
        // on PostgreSQL: a concurrent call waits here, then sees this one's
        // change. Locked in the order of their ids, the same in every call,
        // and the user to change among them, so no call goes on to lock a row
        // after holding others: two calls never each hold a row the other
        // waits for (a deadlock, seen under load when the user to change had
        // just stopped being an administrator and was updated unlocked).
        // SQLite runs one transaction at a time anyway (and has no FOR UPDATE).
        const involved = trx
          .selectFrom('users')
          .select(['id', 'is_admin', 'enabled'])
          .where((eb) =>
            eb.or([eb.and([eb('is_admin', '=', 1), eb('enabled', '=', 1)]), eb('id', '=', id)]),
          )
          .orderBy('id');
        const rows = await (dialect === 'postgres' ? involved.forUpdate() : involved).execute();
        if (!rows.some((row) => row.id === id)) return 'not_found';
        const admins = rows.filter((row) => fromFlag(row.is_admin) && fromFlag(row.enabled));
        if (admins.some((row) => row.id === id) && admins.length === 1) return 'last_admin';
        await trx
          .updateTable('users')
          .set(
            change === 'disable'
              ? { enabled: toFlag(false), updated_at: at }
              : { is_admin: toFlag(false), updated_at: at },
          )
          .where('id', '=', id)
          .execute();
        return 'done';
      });
    },

    async countAdmins() {
      const { total } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('total'))
        .where('is_admin', '=', 1)
        .executeTakeFirstOrThrow();
      return toCount(total);
    },
  };
}
