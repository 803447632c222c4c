import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../../test-support/storage-fixtures.js';
import type { OidcGrantRecord, ProviderGrantStore } from './types.js';

const later = 10_000;

function grant(grantId: string, overrides: Partial<OidcGrantRecord> = {}): OidcGrantRecord {
  return {
    grantId,
    clientId: 'app',
    userRowId: 1,
    subject: 'alice',
    entryId: 'corp',
    signInHash: 'sign-in-one',
    sid: 'sid-one',
    createdAt: 1,
    ...overrides,
  };
}

/** A grant with one access token and one refresh token. */
async function issued(grants: ProviderGrantStore, record: OidcGrantRecord): Promise<void> {
  await grants.addGrant(record);
  const { grantId, clientId, userRowId } = record;
  const common = { clientId, userRowId, scope: 'openid', expiresAt: later };
  const added = await grants.addTokens(
    grantId,
    {
      access: { ...common, tokenHash: `access-${grantId}` },
      refresh: { ...common, tokenHash: `refresh-${grantId}`, entryId: record.entryId, authTime: 1 },
    },
    1,
  );
  assert.ok(added);
}

describe('ProviderGrantStore: grants and the sign-ins they came from', () => {
  test('writes together commit together: a failing insert undoes the redemption before it', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      await issued(grants, grant('g1'));
      const common = { clientId: 'app', userRowId: 1, scope: 'openid', expiresAt: later };
      assert.equal((await grants.findRefreshToken('refresh-g1', 'app', 2)).outcome, 'unused');
      await assert.rejects(
        grants.writeTogether(async (unit) => {
          const redeemed = await unit.redeemRefreshToken('refresh-g1', 'app', 2);
          assert.equal(redeemed.outcome, 'redeemed');
          // The access token's hash is taken: the insert fails, in addTokens'
          // own transaction were it not this one's.
          await unit.addTokens('g1', { access: { ...common, tokenHash: 'access-g1' } }, 2);
        }),
      );
      assert.equal((await grants.findRefreshToken('refresh-g1', 'app', 3)).outcome, 'unused');
      assert.equal((await grants.findRefreshToken('refresh-g1', 'other', 3)).outcome, 'unknown');
      assert.equal((await grants.findRefreshToken('refresh-g1', 'app', later)).outcome, 'unknown');
      assert.equal((await grants.redeemRefreshToken('refresh-g1', 'app', 3)).outcome, 'redeemed');
      assert.equal((await grants.findRefreshToken('refresh-g1', 'app', 4)).outcome, 'replayed');
      // A revocation within a unit is that unit's too.
      await grants.writeTogether(async (unit) => {
        assert.equal(await unit.revokeGrant('g1', 5), 1);
      });
      assert.equal(await grants.accessToken('access-g1', 5), undefined);
    });
  });

  test('ending the grants of a sign-in, a user or an entry takes their tokens with them', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      await issued(grants, grant('g1'));
      await issued(grants, grant('g2', { clientId: 'other' }));
      await issued(grants, grant('g3', { signInHash: 'sign-in-two', userRowId: 2 }));
      await issued(grants, grant('g4', { signInHash: 'sign-in-three', entryId: 'partner' }));
      assert.deepEqual(await grants.grant('g1'), grant('g1'));

      const ended = await grants.endGrants({ signInHash: 'sign-in-one' });
      assert.deepEqual(ended.map((record) => record.grantId).sort(), ['g1', 'g2']);
      assert.equal(await grants.grant('g1'), undefined);
      assert.equal(await grants.accessToken('access-g1', 0), undefined);
      const refresh = await grants.redeemRefreshToken('refresh-g2', 'other', 0);
      assert.equal(refresh.outcome, 'unknown');
      assert.deepEqual(await grants.endGrants({ signInHash: 'sign-in-one' }), [], 'ended once');
      // The others' tokens stay.
      assert.equal((await grants.accessToken('access-g3', 0))?.grantId, 'g3');

      assert.deepEqual(
        (await grants.endGrants({ userRowId: 2 })).map((record) => record.grantId),
        ['g3'],
      );
      assert.deepEqual(
        (await grants.endGrants({ entryId: 'partner' })).map((record) => record.sid),
        ['sid-one'],
      );
      assert.equal(await grants.accessToken('access-g4', 0), undefined);
    });
  });

  test('of two endings at once, each grant goes to one alone', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      for (const id of ['g1', 'g2', 'g3']) await issued(grants, grant(id));
      const [one, two] = await Promise.all([
        grants.endGrants({ signInHash: 'sign-in-one' }),
        grants.endGrants({ userRowId: 1 }),
      ]);
      const taken = [...one, ...two].map((record) => record.grantId).sort();
      assert.deepEqual(taken, ['g1', 'g2', 'g3']);
    });
  });

  test('a revoked grant stays revoked: no token is added to it, and its used ones stay as tombstones', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      await issued(grants, grant('g1'));
      assert.equal((await grants.redeemRefreshToken('refresh-g1', 'app', 2)).outcome, 'redeemed');
      assert.equal(await grants.revokeGrant('g1', 3), 1, 'the access token');
      assert.equal(await grants.grant('g1'), undefined);
      assert.equal(await grants.accessToken('access-g1', 3), undefined);
      const common = { clientId: 'app', userRowId: 1, scope: 'openid', expiresAt: later };
      const refused = await grants.addTokens(
        'g1',
        {
          access: { ...common, tokenHash: 'access-late' },
          refresh: { ...common, tokenHash: 'refresh-late', entryId: 'corp', authTime: 1 },
        },
        4,
      );
      assert.equal(refused, false);
      assert.equal(await grants.accessToken('access-late', 4), undefined);
      assert.equal((await grants.redeemRefreshToken('refresh-late', 'app', 4)).outcome, 'unknown');
      // Presented again later, the used token is still a replay, and the grant still revoked.
      assert.equal((await grants.redeemRefreshToken('refresh-g1', 'app', 5)).outcome, 'replayed');
      assert.equal(await grants.revokeGrant('g1', 5), 0);
      await grants.deleteExpired(later - 1);
      assert.equal((await grants.redeemRefreshToken('refresh-g1', 'app', 6)).outcome, 'replayed');
      // Once its last refresh token has expired, the sweep removes the grant.
      await grants.deleteExpired(later);
      assert.deepEqual(await grants.signInsWithGrants('', 10), []);
    });
  });

  test('tokens being added and a revocation at once: the tokens are refused, or revoked', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      await grants.addGrant(grant('g1'));
      const common = { clientId: 'app', userRowId: 1, scope: 'openid', expiresAt: later };
      const adds = Array.from({ length: 6 }, (_, index) =>
        grants.addTokens(
          'g1',
          {
            access: { ...common, tokenHash: `access-${index}` },
            refresh: { ...common, tokenHash: `refresh-${index}`, entryId: 'corp', authTime: 1 },
          },
          2,
        ),
      );
      await Promise.all([...adds.slice(0, 3), grants.revokeGrant('g1', 2), ...adds.slice(3)]);
      for (let index = 0; index < 6; index += 1) {
        assert.equal(await grants.accessToken(`access-${index}`, 3), undefined);
        const refresh = await grants.redeemRefreshToken(`refresh-${index}`, 'app', 3);
        assert.notEqual(refresh.outcome, 'redeemed');
      }
    });
  });

  test('the sign-ins with grants, a page at a time, each once', async () => {
    await withTestStorage(async ({ providerGrants: grants }) => {
      for (const [id, signIn] of [
        ['g1', 'c'],
        ['g2', 'a'],
        ['g3', 'c'],
        ['g4', 'b'],
      ] as const) {
        await grants.addGrant(grant(id, { signInHash: signIn }));
      }
      assert.deepEqual(await grants.signInsWithGrants('', 2), ['a', 'b']);
      assert.deepEqual(await grants.signInsWithGrants('b', 2), ['c']);
      assert.deepEqual(await grants.signInsWithGrants('c', 2), []);
    });
  });
});
