import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { FailoverPool } from '../../foundation/storage/postgres/failover-pool.js';
import { featureTables } from '../../app/open-storage.js';
import type { Config } from '../../foundation/config/load-config.js';
import { migrationStanding, migrations } from '../../foundation/storage/migrations/index.js';
import type { Database } from '../../foundation/storage/schema.js';
import {
  closeRedis,
  connectRedis,
  describeRedisTarget,
  redactUrl,
} from '../../foundation/storage/redis/redis-connection.js';
import type { Finding } from './findings.js';
import { passed, problem, reasonOf } from './findings.js';

/** An entry as stored: its definition, not yet compiled. */
export interface StoredEntry {
  readonly id: string;
  readonly definition: Record<string, unknown>;
}

interface DatabaseReport {
  readonly findings: Finding[];
  /** The stored entries, read when the database answered and is migrated. */
  readonly entries: readonly StoredEntry[] | undefined;
}

/**
 * Reaches the database and compares its recorded migrations with this
 * build's, without migrating or writing: the SQLite file is opened read-only
 * and must exist, PostgreSQL is asked one query on one connection.
 */
export async function databaseFindings(config: Config): Promise<DatabaseReport> {
  const check = 'database';
  const { database } = config;
  const subject =
    database.kind === 'sqlite' ? `sqlite:${database.filename}` : redactUrl(database.url);
  if (database.kind === 'sqlite' && database.filename === ':memory:') {
    return stopsAt(
      problem(
        'database_in_memory',
        check,
        subject,
        'an in-memory database: everything is lost when the gateway stops',
        'set SSOGATE_DATABASE_URL to a file (sqlite:/var/lib/ssogate/ssogate.db) or postgres://...',
      ),
    );
  }
  if (database.kind === 'sqlite' && !existsSync(database.filename)) {
    return stopsAt(
      problem(
        'database_not_migrated',
        check,
        subject,
        'the file does not exist yet',
        'start the gateway once (or any ssogate command such as `ssogate token list`): it creates and migrates it',
      ),
    );
  }
  let db: Kysely<Database>;
  try {
    db = openReadOnly(config);
  } catch (error) {
    return stopsAt(unreachable(subject, error));
  }
  try {
    let applied: string[];
    try {
      applied = await appliedMigrations(db);
    } catch (error) {
      return stopsAt(unreachable(subject, error));
    }
    const known = Object.keys(migrations(database.kind, featureTables));
    const standing = migrationStanding(known, applied);
    if (standing.kind === 'diverged') {
      return stopsAt(
        problem(
          'database_newer',
          check,
          subject,
          `records migrations this build does not know among its own (${standing.unknown.join(', ')})`,
          'run the ssogate version that migrated it, or a newer one',
        ),
      );
    }
    if (standing.kind === 'behind') {
      return stopsAt(
        problem(
          'database_not_migrated',
          check,
          subject,
          `${standing.missing.length} of ${known.length} migrations not applied (first: ${standing.missing[0] ?? ''})`,
          'start the gateway once (or any ssogate command such as `ssogate token list`): it migrates under a lock',
        ),
      );
    }
    const state =
      standing.kind === 'ahead'
        ? `reachable, all ${known.length} migrations applied, and ${standing.unknown.length} of a newer release (${standing.unknown.join(', ')}), which this one runs beside during an upgrade`
        : `reachable, all ${known.length} migrations applied`;
    const rows = await db
      .selectFrom('entries')
      .select(['id', 'definition', 'extension_secret_sealed'])
      .execute();
    return {
      findings: [passed(check, subject, state)],
      entries: rows.map((row) => ({
        id: row.id,
        definition: {
          ...(JSON.parse(row.definition) as Record<string, unknown>),
          // Stored sealed beside the definition; the doctor never opens it (no calls are
          // signed), but an entry of type extension is only valid with one.
          ...(row.extension_secret_sealed === null ? {} : { extensionSecret: sealedPlaceholder }),
        },
      })),
    };
  } finally {
    await db.destroy();
  }
}

/** Stands for a sealed secret in a definition checked without the secret key. */
const sealedPlaceholder = 'sealed-secret-not-opened-by-the-doctor';

/** A report that ends at `finding`: the entries could not be read. */
function stopsAt(finding: Finding): DatabaseReport {
  return { findings: [finding], entries: undefined };
}

function unreachable(subject: string, error: unknown): Finding {
  return problem(
    'database_unreachable',
    'database',
    subject,
    reasonOf(error),
    subject.startsWith('sqlite:')
      ? "check the path and that the gateway's user may read it; a new install creates it at first start"
      : 'check the host, port, credentials and that PostgreSQL accepts this address (pg_hba.conf)',
  );
}

function openReadOnly(config: Config): Kysely<Database> {
  const { database } = config;
  if (database.kind === 'sqlite') {
    const file = new BetterSqlite3(database.filename, { readonly: true, fileMustExist: true });
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  }
  // Several servers in the URL: the primary's reading is the one that counts.
  const pool = new FailoverPool(database.url, {
    max: 1,
    connectionTimeoutMillis: 5000,
  });
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** The names in Kysely's migration table; none when the table is absent (a new database). */
async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return [];
  const rows = await (db as unknown as Kysely<{ kysely_migration: { name: string } }>)
    .selectFrom('kysely_migration')
    .select('name')
    .execute();
  return rows.map((row) => row.name);
}

/** Redis, when configured: one connection, one PING. */
export async function redisFindings(config: Config): Promise<Finding[]> {
  if (config.redis === undefined) return [];
  const subject = describeRedisTarget(config.redis);
  try {
    const redis = await connectRedis(config.redis, 'ssogate-doctor');
    try {
      await redis.ping();
    } finally {
      await closeRedis(redis);
    }
    return [passed('redis', subject, 'answers PING')];
  } catch (error) {
    return [
      problem(
        'redis_unreachable',
        'redis',
        subject,
        reasonOf(error),
        config.redis.kind === 'url'
          ? 'check the host, port and password in SSOGATE_REDIS_URL, and that Redis accepts this address'
          : 'check SSOGATE_REDIS_SENTINELS, SSOGATE_REDIS_MASTER and the passwords, that the Sentinels answer and know a master by that name, and that it accepts this address',
      ),
    ];
  }
}
