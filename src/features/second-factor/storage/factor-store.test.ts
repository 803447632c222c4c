import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../../test-support/storage-fixtures.js';

describe('SecondFactorStore', () => {
  test('a factor is saved sealed, listed without its secret, and a step is accepted once', async () => {
    await withTestStorage(async (storage) => {
      const { secondFactors, kysely } = storage;
      const secret = 'JBSWY3DPEHPK3PXP';
      await secondFactors.addTotp({
        factorId: 'f1',
        userRowId: 7,
        name: 'Phone',
        secret,
        lastStep: 100,
        createdAt: 1000,
      });
      const listed = await secondFactors.list(7);
      assert.deepEqual(listed, [
        { factorId: 'f1', kind: 'totp', name: 'Phone', createdAt: 1000, lastUsedAt: 1000 },
      ]);
      assert.equal((await secondFactors.totpFactors(7))[0]?.secret, secret);
      const stored = await kysely
        .withTables<{ second_factors: { secret_sealed: string } }>()
        .selectFrom('second_factors')
        .select('secret_sealed')
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret_sealed.includes(secret), 'the secret is sealed at rest');

      // The step that proved it, and any before it, are refused; a later one once.
      assert.equal(await secondFactors.useStep('f1', 100, 2000), false);
      assert.equal(await secondFactors.useStep('f1', 99, 2000), false);
      const both = await Promise.all([
        secondFactors.useStep('f1', 101, 2000),
        secondFactors.useStep('f1', 101, 2000),
      ]);
      assert.deepEqual(both.sort(), [false, true]);
      assert.equal(await secondFactors.useStep('f1', 102, 3000), true);

      assert.equal(await secondFactors.remove(8, 'f1'), false, "another user's factor stays");
      assert.equal(await secondFactors.remove(7, 'f1'), true);
      assert.deepEqual(await secondFactors.list(7), []);
    });
  });

  test('recovery codes are each good once, for their own user only', async () => {
    await withTestStorage(async ({ secondFactors }) => {
      await secondFactors.replaceRecoveryCodes(7, ['aaaa-bbbb', 'cccc-dddd'], 10);
      assert.equal(await secondFactors.recoveryCodesLeft(7), 2);
      assert.equal(await secondFactors.useRecoveryCode(8, 'aaaa-bbbb', 20), false);
      assert.equal(await secondFactors.useRecoveryCode(7, 'AAAA BBBB', 20), true);
      assert.equal(await secondFactors.useRecoveryCode(7, 'aaaa-bbbb', 30), false);
      assert.equal(await secondFactors.recoveryCodesLeft(7), 1);
      await secondFactors.replaceRecoveryCodes(7, ['eeee-ffff'], 40);
      assert.equal(await secondFactors.useRecoveryCode(7, 'cccc-dddd', 50), false);
      assert.equal(await secondFactors.recoveryCodesLeft(7), 1);
      await secondFactors.addTotp({
        factorId: 'f2',
        userRowId: 7,
        name: 'Key',
        secret: 'JBSWY3DPEHPK3PXP',
        lastStep: 1,
        createdAt: 1,
      });
      assert.equal(await secondFactors.removeAll(7), 1);
      assert.equal(await secondFactors.recoveryCodesLeft(7), 0);
    });
  });
});
