import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { FeatureTables } from '../feature-tables.js';
import type { Database, SqlDialect } from '../schema.js';
import { initialMigration } from './0001-initial.js';
import { auditSignInIndexMigration } from './0002-audit-sign-in-index.js';
import { extensionSecretMigration } from './0003-extension-secret.js';
import { expiryIndexesMigration } from './0004-expiry-indexes.js';
import { sessionRevocationsMigration } from './0005-session-revocations.js';
import { openIdConnectMigration } from './0006-openid-connect.js';
import { apiTokenExpiryMigration } from './0007-api-token-expiry.js';
import { appTokensMigration } from './0008-app-tokens.js';
import { userGroupsMigration } from './0009-user-groups.js';
import { auditReferenceIndexMigration } from './0010-audit-reference-index.js';
import { rateWindowsMigration } from './0011-rate-windows.js';
import { accessTokenRevalidationMigration } from './0012-access-token-revalidation.js';
import { apiTokenOwnerMigration } from './0014-api-token-owner.js';
import { hostSessionsMigration } from './0015-host-sessions.js';
import { sessionHostMigration } from './0016-session-host.js';
import { handoffUserMigration } from './0022-handoff-user.js';
import { withoutRowidMigration } from './0023-without-rowid.js';
import { auditReferencePartialIndexMigration } from './0024-audit-reference-partial-index.js';
import { oidcSidPartialIndexMigration } from './0025-oidc-sid-partial-index.js';
import { samlSubjectMigration } from './0027-saml-subject.js';
import { sessionFactorMigration } from './0028-session-factor.js';

/**
 * The migrations in code rather than files on disk, so a bundled or compiled
 * gateway cannot miss one: the kernel's, and those of the features' own
 * tables (feature-tables.ts), in one list ordered by name. Names sort in the
 * order they run, and are what a database records of each; never rename or
 * edit a released one: add the next. A feature's migrations are numbered in
 * the same sequence (the test sign-ins' is 0013, the OpenID Provider's are
 * 0017-0021, 0026 and 0031), so a database migrated before they moved to the
 * feature finds each one done.
 */
export function migrations(
  dialect: SqlDialect,
  features: readonly FeatureTables[] = [],
): Record<string, Migration> {
  const all: Record<string, Migration> = { ...kernelMigrations(dialect) };
  for (const feature of features) {
    for (const [name, migration] of Object.entries(feature.migrations(dialect))) {
      if (Object.hasOwn(all, name)) throw new Error(`Two migrations are named ${name}.`);
      all[name] = migration;
    }
  }
  return Object.fromEntries(
    Object.entries(all).sort(([one], [other]) => (one < other ? -1 : one > other ? 1 : 0)),
  );
}

/** The storage kernel's own migrations. */
function kernelMigrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_initial': initialMigration(dialect),
    '0002_audit_sign_in_index': auditSignInIndexMigration,
    '0003_extension_secret': extensionSecretMigration(),
    '0004_expiry_indexes': expiryIndexesMigration,
    '0005_session_revocations': sessionRevocationsMigration(dialect),
    '0006_openid_connect': openIdConnectMigration,
    '0007_api_token_expiry': apiTokenExpiryMigration,
    '0008_app_tokens': appTokensMigration,
    '0009_user_groups': userGroupsMigration,
    '0010_audit_reference_index': auditReferenceIndexMigration,
    '0011_rate_windows': rateWindowsMigration,
    '0012_access_token_revalidation': accessTokenRevalidationMigration,
    '0014_api_token_owner': apiTokenOwnerMigration,
    '0015_host_sessions': hostSessionsMigration,
    '0016_session_host': sessionHostMigration,
    '0022_handoff_user': handoffUserMigration,
    '0023_without_rowid': withoutRowidMigration(dialect),
    '0024_audit_reference_partial_index': auditReferencePartialIndexMigration,
    '0025_oidc_sid_partial_index': oidcSidPartialIndexMigration,
    '0027_saml_subject': samlSubjectMigration,
    '0028_session_factor': sessionFactorMigration(dialect),
  };
}

/** Kysely's record of the migrations a database has run (the Migrator's default table). */
const migrationTable = 'kysely_migration';

/** The names of the migrations the database records as run; none on a new database. */
async function migrationsRun(db: Kysely<Database>, dialect: SqlDialect): Promise<string[]> {
  const exists =
    dialect === 'sqlite'
      ? sql<{ found: number }>`select count(*) as found from sqlite_master
          where type = 'table' and name = ${migrationTable}`
      : sql<{ found: number }>`select count(*)::int as found from pg_tables
          where schemaname = current_schema() and tablename = ${migrationTable}`;
  if (((await exists.execute(db)).rows[0]?.found ?? 0) === 0) return [];
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(migrationTable)}`.execute(db);
  return rows.map((row) => row.name);
}

/** Where a database's record of migrations stands against this release's list. */
type MigrationStanding =
  /** Every migration of this release run, and no other: nothing to do. */
  | { readonly kind: 'current' }
  /** Some of this release's migrations not run yet (a new database: all of them). */
  | { readonly kind: 'behind'; readonly missing: readonly string[] }
  /** Every one of this release's run, and others after them: a newer release migrated it. */
  | { readonly kind: 'ahead'; readonly unknown: readonly string[] }
  /** Unknown migrations among this release's own, or one of its own missing behind them. */
  | { readonly kind: 'diverged'; readonly unknown: readonly string[] };

/**
 * `known` in the order they run (names sort in that order), `run` as the
 * database records them. A release only adds to the schema what the one
 * before it can ignore (docs/operations.md#upgrading-without-downtime), so
 * a database `ahead` still serves this release: during a rolling upgrade an
 * instance of the older release starts beside the new ones. A `diverged`
 * history is not one this release can reason about.
 */
export function migrationStanding(
  known: readonly string[],
  run: readonly string[],
): MigrationStanding {
  const unknown = run.filter((name) => !known.includes(name)).sort();
  const missing = known.filter((name) => !run.includes(name));
  if (unknown.length === 0)
    return missing.length === 0 ? { kind: 'current' } : { kind: 'behind', missing };
  const last = known.at(-1) ?? '';
  return missing.length === 0 && unknown.every((name) => name > last)
    ? { kind: 'ahead', unknown }
    : { kind: 'diverged', unknown };
}

/**
 * Brings the schema up to date; running it again on a current database does
 * nothing. A database a newer release has migrated further is left as it is,
 * and one whose history has diverged is refused (migrationStanding).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: SqlDialect,
  features: readonly FeatureTables[] = [],
): Promise<void> {
  const known = migrations(dialect, features);
  const standing = migrationStanding(Object.keys(known), await migrationsRun(db, dialect));
  if (standing.kind === 'ahead') return;
  if (standing.kind === 'diverged') {
    throw new Error(
      `The database records migrations this release does not know among its own (${standing.unknown.join(', ')}): ` +
        'it was migrated by another line of ssogate, or its migration record was edited.',
    );
  }
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve(known),
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`The database migration ${failed ?? ''} failed.`, { cause: error });
  }
}
