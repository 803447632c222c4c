import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PendingSignIn } from './types.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { testBackendName } from '../../test-support/test-backend.js';

// With Redis, sessions and pending sign-ins live there: Redis expires them by
// TTL (deleteExpired has nothing to do) and enforces no foreign key.
const sqlOnly = testBackendName().endsWith('+redis') ? 'SQL stores only (Redis in use)' : false;

function pending(stateHash: string, expiresAt = 600_000): PendingSignIn {
  return {
    stateHash,
    entryId: 'corp',
    returnTo: '/app?x=1',
    bindingHash: 'binding',
    redirectUri: 'https://gw.example/_sso/callback/corp',
    codeVerifier: 'verifier',
    createdAt: 1000,
    expiresAt,
  };
}

describe('PendingSignInStore', () => {
  test('consume returns the pending sign-in once, then undefined', async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      await pendingSignIns.save(pending('s1'));
      await pendingSignIns.save({ ...pending('s2'), codeVerifier: null });
      assert.deepEqual(await pendingSignIns.consume('s1'), pending('s1'));
      assert.equal(await pendingSignIns.consume('s1'), undefined);
      assert.equal((await pendingSignIns.consume('s2'))?.codeVerifier, null);
      assert.equal(await pendingSignIns.consume('never'), undefined);
    });
  });

  test("a handoff's record keeps its host, sign-in and user id; one stored without a user id has null", async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      const handoff = { host: 'wiki.example', signInHash: 'sign-in', userId: 'alice' };
      await pendingSignIns.save({ ...pending('h1'), handoff });
      assert.deepEqual((await pendingSignIns.consume('h1'))?.handoff, handoff);
      await pendingSignIns.save({ ...pending('h2'), handoff: { ...handoff, userId: null } });
      assert.deepEqual((await pendingSignIns.consume('h2'))?.handoff, {
        ...handoff,
        userId: null,
      });
    });
  });

  test('saving a pending sign-in under a key in use replaces it', async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      await pendingSignIns.save(pending('browser-key'));
      const newer = { ...pending('browser-key', 900_000), returnTo: '/newer', createdAt: 2000 };
      await pendingSignIns.save(newer);
      assert.deepEqual(await pendingSignIns.consume('browser-key'), newer);
      assert.equal(await pendingSignIns.consume('browser-key'), undefined);
    });
  });

  test('with perBrowser, a browser keeps its newest pending sign-ins and others keep theirs', async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      const browser = (stateHash: string, createdAt: number, bindingHash = 'binding') => ({
        ...pending(stateHash),
        bindingHash,
        createdAt,
      });
      await pendingSignIns.save(browser('other', 500, 'another-browser'), 2);
      for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) {
        await pendingSignIns.save(browser(key, 1000 + index), 2);
      }
      // One consumed: the next save counts only what is left.
      assert.notEqual(await pendingSignIns.consume('d'), undefined);
      await pendingSignIns.save(browser('e', 2000), 2);
      const left = [];
      for (const key of ['a', 'b', 'c', 'e', 'other']) {
        if ((await pendingSignIns.consume(key)) !== undefined) left.push(key);
      }
      assert.deepEqual(left, ['c', 'e', 'other']);
    });
  });

  test('of 20 concurrent consumes of one state, exactly one gets it', async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      await pendingSignIns.save(pending('race'));
      const results = await Promise.all(
        Array.from({ length: 20 }, () => pendingSignIns.consume('race')),
      );
      assert.equal(results.filter((r) => r !== undefined).length, 1);
    });
  });

  test('deleteExpired removes those at or past their expiry', { skip: sqlOnly }, async () => {
    await withTestStorage(async ({ pendingSignIns }) => {
      await pendingSignIns.save(pending('old', 1000));
      await pendingSignIns.save(pending('edge', 2000));
      await pendingSignIns.save(pending('new', 3000));
      assert.equal(await pendingSignIns.deleteExpired(2000), 2);
      assert.equal(await pendingSignIns.consume('old'), undefined);
      assert.notEqual(await pendingSignIns.consume('new'), undefined);
    });
  });
});
