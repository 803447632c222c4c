import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStorage } from '../../app/open-storage.js';
import { loadConfig } from '../config/load-config.js';
import { executeStatements } from '../../test-support/database-text.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { withTempDir } from '../../test-support/storage-values.js';
import { testBackend } from '../../test-support/test-backend.js';

describe('ApiTokenStore', () => {
  test('create, find, mark used, list, revoke', async () => {
    await withTestStorage(async ({ apiTokens }) => {
      await apiTokens.create({ id: 't1', name: 'ci', tokenHash: 'hash1', createdAt: 10 });
      await apiTokens.create({ id: 't2', name: 'deploy', tokenHash: 'hash2', createdAt: 20 });
      assert.deepEqual(await apiTokens.findActiveByHash('hash1'), {
        id: 't1',
        name: 'ci',
        tokenHash: 'hash1',
        createdAt: 10,
        lastUsedAt: null,
        revokedAt: null,
        expiresAt: null,
        owner: null,
      });
      assert.equal(await apiTokens.findActiveByHash('nope'), undefined);

      await apiTokens.markUsed('t1', 15);
      assert.equal((await apiTokens.findActiveByHash('hash1'))?.lastUsedAt, 15);

      assert.equal(await apiTokens.revoke('t1', 30), true);
      assert.equal(await apiTokens.findActiveByHash('hash1'), undefined);
      assert.equal(await apiTokens.revoke('t1', 40), false);
      assert.equal(await apiTokens.revoke('unknown', 40), false);

      const listed = await apiTokens.list();
      assert.deepEqual(
        listed.map((t) => [t.id, t.revokedAt]),
        [
          ['t1', 30],
          ['t2', null],
        ],
      );
    });
  });

  test('an expiry time is kept, to the millisecond', async () => {
    await withTestStorage(async ({ apiTokens }) => {
      const expiresAt = Date.parse('2024-05-31T12:00:00.123Z');
      await apiTokens.create({ id: 't1', name: 'ci', tokenHash: 'h', createdAt: 1, expiresAt });
      assert.equal((await apiTokens.findActiveByHash('h'))?.expiresAt, expiresAt);
      assert.equal((await apiTokens.list())[0]?.expiresAt, expiresAt);
    });
  });

  test('an owner is kept: a user row with its userId, or a named service', async () => {
    await withTestStorage(async ({ apiTokens }) => {
      const user = { kind: 'user', userRowId: 7, userId: 'alice' } as const;
      const service = { kind: 'service', name: 'deploy-bot' } as const;
      await apiTokens.create({ id: 't1', name: 'a', tokenHash: 'h1', createdAt: 1, owner: user });
      await apiTokens.create({
        id: 't2',
        name: 'b',
        tokenHash: 'h2',
        createdAt: 2,
        owner: service,
      });
      assert.deepEqual((await apiTokens.findActiveByHash('h1'))?.owner, user);
      assert.deepEqual(
        (await apiTokens.list()).map((token) => token.owner),
        [user, service],
      );
    });
  });

  test('migration 0014 keeps a token stored before it, with no owner', async () => {
    await withTempDir(async (dir) => {
      const backend = await testBackend({ sqliteFile: join(dir, 'gateway.db') });
      try {
        const config = loadConfig({
          ...backend.env,
          SSOGATE_DATA_DIR: dir,
          SSOGATE_LOG_LEVEL: 'silent',
        });
        await (await openStorage(config)).close();
        // The database as migration 0013 left it, holding a token.
        await executeStatements(config.database, [
          // Later migrations first, undone in turn.
          ...(config.database.kind === 'sqlite' ? ['drop trigger sessions_revoke_factor'] : []),
          'drop table webauthn_challenges',
          'drop table webauthn_credentials',
          'drop table recovery_codes',
          'drop table second_factors',
          'alter table sessions drop column factor_at',
          'alter table sessions drop column factor_method',
          'alter table oidc_sessions drop column subject_qualifiers',
          "delete from kysely_migration where name >= '0017'",
          'drop table oidc_grants',
          'drop table oidc_refresh_tokens',
          'drop table oidc_access_tokens',
          'drop table oidc_codes',
          'drop table oidc_signing_keys',
          'drop table oidc_clients',
          'alter table pending_sign_ins drop column handoff_user',
          "delete from kysely_migration where name = '0016_session_host'",
          'alter table sessions drop column host',
          "delete from kysely_migration where name = '0015_host_sessions'",
          'alter table sessions drop column sign_in_hash',
          'alter table pending_sign_ins drop column handoff_host',
          'alter table pending_sign_ins drop column handoff_sign_in',
          "delete from kysely_migration where name = '0014_api_token_owner'",
          'alter table api_tokens drop column owner_kind',
          'alter table api_tokens drop column owner_user_row_id',
          'alter table api_tokens drop column owner_name',
          "insert into api_tokens (id, name, token_hash, created_at) values ('old', 'old', 'h', 1)",
        ]);
        const storage = await openStorage(config);
        try {
          const found = await storage.apiTokens.findActiveByHash('h');
          assert.deepEqual([found?.id, found?.owner, found?.expiresAt], ['old', null, null]);
        } finally {
          await storage.close();
        }
      } finally {
        await backend.cleanup();
      }
    });
  });

  test('a token hash is unique', async () => {
    await withTestStorage(async ({ apiTokens }) => {
      await apiTokens.create({ id: 't1', name: 'a', tokenHash: 'same', createdAt: 1 });
      await assert.rejects(
        apiTokens.create({ id: 't2', name: 'b', tokenHash: 'same', createdAt: 1 }),
        /UNIQUE|unique constraint/,
      );
    });
  });
});
