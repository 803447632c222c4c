import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { featureTables } from '../../../app/open-storage.js';
import { migrations } from '../../../foundation/storage/migrations/index.js';
import { openSqliteStorage } from '../../../foundation/storage/sqlite/open-sqlite-storage.js';
import { withTestStorage } from '../../../test-support/storage-fixtures.js';
import { newSecretBox, withTempDir } from '../../../test-support/storage-values.js';
import { providerTables } from './provider-stores.js';

/**
 * Every migration a database has recorded (kysely_migration), in the order
 * they ran, from before the provider's and the test sign-ins' moved to
 * their own folders: the kernel's and the features' merged must give
 * exactly this list, so that no database runs one again or finds one missing.
 */
const recorded = [
  '0001_initial',
  '0002_audit_sign_in_index',
  '0003_extension_secret',
  '0004_expiry_indexes',
  '0005_session_revocations',
  '0006_openid_connect',
  '0007_api_token_expiry',
  '0008_app_tokens',
  '0009_user_groups',
  '0010_audit_reference_index',
  '0011_rate_windows',
  '0012_access_token_revalidation',
  '0013_test_sign_ins',
  '0014_api_token_owner',
  '0015_host_sessions',
  '0016_session_host',
  '0017_oidc_clients',
  '0018_oidc_signing_keys',
  '0019_oidc_grants',
  '0020_oidc_refresh_tokens',
  '0021_oidc_grant_sign_ins',
  '0022_handoff_user',
  '0023_without_rowid',
  '0024_audit_reference_partial_index',
  '0025_oidc_sid_partial_index',
  '0026_oidc_grant_revocation',
  '0027_saml_subject',
  '0028_session_factor',
  '0029_second_factors',
  '0030_webauthn_credentials',
  '0031_oidc_grant_acr',
];

describe("the features' migrations", () => {
  test("join the kernel's in one list, by name, as databases recorded them", () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      assert.deepEqual(Object.keys(migrations(dialect, featureTables)), recorded);
    }
  });

  test("the gateway's storage records every one, on the run's backend", async () => {
    await withTestStorage(async (storage) => {
      const { rows } = await sql<{
        name: string;
      }>`select name from kysely_migration order by name`.execute(storage.kysely);
      assert.deepEqual(
        rows.map((row) => row.name),
        recorded,
      );
    });
  });

  test('a migration named twice is refused', () => {
    const twice = { ...providerTables, migrations: () => migrations('sqlite') };
    assert.throws(() => migrations('sqlite', [twice]), /Two migrations are named 0001_initial/);
  });

  test('a database migrates through them in that order, and reopening runs none again', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const secretBox = newSecretBox();
      await (await openSqliteStorage({ filename, secretBox, features: featureTables })).close();
      await (await openSqliteStorage({ filename, secretBox, features: featureTables })).close();
      const raw = new BetterSqlite3(filename, { readonly: true });
      try {
        const rows = raw
          .prepare('select name from kysely_migration order by timestamp, name')
          .all();
        assert.deepEqual(
          rows.map((row) => (row as { name: string }).name),
          recorded,
        );
        assert.ok(
          raw.prepare("select name from sqlite_master where name = 'oidc_grants'").get(),
          'the provider tables exist',
        );
        assert.ok(
          raw.prepare("select name from sqlite_master where name = 'test_sign_ins'").get(),
          "the test sign-ins' table exists",
        );
      } finally {
        raw.close();
      }
    });
  });
});
