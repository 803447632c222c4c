import type { Migration } from 'kysely';
import { testSignInsMigration } from './0013-test-sign-ins.js';

/**
 * The test sign-ins' migration, numbered in the gateway's one sequence and
 * named as every database has recorded it: the storage kernel runs it in
 * that order among its own (foundation/storage/migrations/index.ts). Never
 * rename or edit a released one: add the next number of the sequence.
 */
export const trialSignInMigrations: Readonly<Record<string, Migration>> = {
  '0013_test_sign_ins': testSignInsMigration,
};
