import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import type { OidcGrantRecord, OidcGrantStore } from './types.js';

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
async function issued(grants: OidcGrantStore, record: OidcGrantRecord): Promise<void> {
  await grants.addGrant(record);
  const { grantId, clientId, userRowId } = record;
  const common = { grantId, clientId, userRowId, scope: 'openid', expiresAt: later };
  await grants.addAccessToken({ ...common, tokenHash: `access-${grantId}` });
  await grants.addRefreshToken({
    ...common,
    tokenHash: `refresh-${grantId}`,
    entryId: record.entryId,
    authTime: 1,
  });
}

describe('OidcGrantStore: grants and the sign-ins they came from', () => {
  test('ending the grants of a sign-in, a user or an entry takes their tokens with them', async () => {
    await withTestStorage(async ({ oidcGrants: grants }) => {
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
    await withTestStorage(async ({ oidcGrants: grants }) => {
      for (const id of ['g1', 'g2', 'g3']) await issued(grants, grant(id));
      const [one, two] = await Promise.all([
        grants.endGrants({ signInHash: 'sign-in-one' }),
        grants.endGrants({ userRowId: 1 }),
      ]);
      const taken = [...one, ...two].map((record) => record.grantId).sort();
      assert.deepEqual(taken, ['g1', 'g2', 'g3']);
    });
  });

  test('the sign-ins with grants, a page at a time, each once', async () => {
    await withTestStorage(async ({ oidcGrants: grants }) => {
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
