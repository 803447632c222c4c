import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldOfRefusal, passwordProblems } from './password-form.js';

const none = new Set<never>();

describe('the password form', () => {
  test('an untouched form shows nothing; on submit every missing field is named by its label', () => {
    const empty = { current: '', next: '', confirm: '' };
    assert.deepEqual(passwordProblems(empty, none), {});
    assert.deepEqual(passwordProblems(empty, none, true), {
      current: 'Current password is required.',
      next: 'New password is required.',
    });
  });

  test('only the fields reached are checked', () => {
    const draft = { current: '', next: 'short', confirm: '' };
    assert.deepEqual(passwordProblems(draft, new Set(['next'] as const)), {
      next: 'New password needs at least 12 characters (5 now).',
    });
  });

  test('the new password must differ from the current one and be repeated exactly', () => {
    const same = { current: 'twelve chars!', next: 'twelve chars!', confirm: 'twelve chars?' };
    assert.deepEqual(passwordProblems(same, none, true), {
      next: 'New password must differ from the current one.',
      confirm: 'Repeat the new password does not match New password.',
    });
    const good = {
      current: 'old one',
      next: 'a long new passphrase',
      confirm: 'a long new passphrase',
    };
    assert.deepEqual(passwordProblems(good, none, true), {});
  });

  test("the gateway's refusals go to their fields", () => {
    assert.equal(fieldOfRefusal('password_wrong'), 'current');
    assert.equal(fieldOfRefusal('password_weak'), 'next');
    assert.equal(fieldOfRefusal('rate_limited'), undefined);
  });
});
