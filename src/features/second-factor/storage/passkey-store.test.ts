import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../../test-support/storage-fixtures.js';

const passkey = {
  factorId: 'p1',
  userRowId: 7,
  credentialId: 'Y3JlZA',
  publicKey: 'cHVibGlj',
  counter: 5,
  transports: ['internal', 'hybrid'],
  deviceType: 'singleDevice' as const,
  name: 'Laptop',
};

describe('PasskeyStore', () => {
  test('a passkey is listed beside one-time code factors, its counter raised only upward and once', async () => {
    await withTestStorage(async ({ passkeys, secondFactors }) => {
      await passkeys.add(passkey, 1000);
      assert.deepEqual(await passkeys.byCredentialId('Y3JlZA'), passkey);
      assert.deepEqual(await secondFactors.list(7), [
        { factorId: 'p1', kind: 'webauthn', name: 'Laptop', createdAt: 1000, lastUsedAt: 1000 },
      ]);
      assert.equal(await passkeys.useCounter('p1', 5, 2000), false, 'the same counter again');
      assert.equal(await passkeys.useCounter('p1', 4, 2000), false, 'a lower counter');
      assert.equal(await passkeys.useCounter('p1', 0, 2000), false, 'zero after non-zero');
      const both = await Promise.all([
        passkeys.useCounter('p1', 6, 2000),
        passkeys.useCounter('p1', 6, 2000),
      ]);
      assert.deepEqual(both.sort(), [false, true]);
      assert.equal((await passkeys.byCredentialId('Y3JlZA'))?.counter, 6);
      assert.equal(await secondFactors.remove(7, 'p1'), true);
      assert.equal(await passkeys.byCredentialId('Y3JlZA'), undefined);
    });
  });

  test('an authenticator without a counter (always zero) is accepted at zero', async () => {
    await withTestStorage(async ({ passkeys, secondFactors }) => {
      await passkeys.add({ ...passkey, counter: 0 }, 1000);
      assert.equal(await passkeys.useCounter('p1', 0, 2000), true);
      assert.equal(await passkeys.useCounter('p1', 0, 3000), true);
      assert.equal(await secondFactors.removeAll(7), 1, 'an administrator’s reset removes it');
      assert.deepEqual(await passkeys.ofUser(7), []);
    });
  });

  test('a challenge is good once, for its session and purpose, until it expires', async () => {
    await withTestStorage(async ({ passkeys }) => {
      await passkeys.saveChallenge('c1', 's1', 'authenticate', 5000);
      assert.equal(await passkeys.takeChallenge('c1', 's2', 'authenticate', 1000), false);
      assert.equal(await passkeys.takeChallenge('c1', 's1', 'register', 1000), false);
      assert.equal(await passkeys.takeChallenge('c1', 's1', 'authenticate', 6000), false);
      assert.equal(await passkeys.takeChallenge('c1', 's1', 'authenticate', 1000), true);
      assert.equal(await passkeys.takeChallenge('c1', 's1', 'authenticate', 1000), false);
    });
  });

  test('the expiry sweep deletes challenges never answered, and only those past their time', async () => {
    await withTestStorage(async (storage) => {
      await storage.passkeys.saveChallenge('old', 's1', 'register', 5000);
      await storage.passkeys.saveChallenge('new', 's1', 'register', 9000);
      await storage.sweepExpired(6000, 0);
      const left = await storage.kysely
        .withTables<{ webauthn_challenges: { challenge_hash: string } }>()
        .selectFrom('webauthn_challenges')
        .select('challenge_hash')
        .execute();
      assert.equal(left.length, 1);
      assert.equal(await storage.passkeys.takeChallenge('new', 's1', 'register', 6000), true);
    });
  });
});
