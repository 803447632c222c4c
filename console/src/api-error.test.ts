import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, describeFailure, signInAgainHref, toApiError } from './api-error.js';

describe('a failed admin API call', () => {
  test("takes the API's coded error with its problems and reference", () => {
    const problems = [{ code: 'entry_invalid', field: 'tokenUrl', message: 'is required' }];
    const error = toApiError(400, {
      error: {
        code: 'entry_invalid',
        message: 'the entry has problems',
        problems,
        reference: 'r1',
      },
    });
    assert.ok(error instanceof ApiError);
    const { status, code, message, reference } = error;
    assert.deepEqual(
      { status, code, message, problems: error.problems, reference },
      {
        status: 400,
        code: 'entry_invalid',
        message: 'the entry has problems',
        problems,
        reference: 'r1',
      },
    );
  });

  test('a body that is not the coded error still makes one, with the status', () => {
    for (const payload of [
      undefined,
      null,
      'Bad gateway',
      [],
      { error: null },
      { error: 'oops' },
      { error: { code: 7, message: ['x'], problems: 'many', reference: 1 } },
    ]) {
      const error = toApiError(502, payload);
      assert.equal(error.status, 502);
      assert.equal(error.code, 'request_failed');
      assert.equal(error.message, 'the server answered 502');
      assert.deepEqual(error.problems, []);
      assert.equal(error.reference, undefined);
    }
  });

  test('is described with its code, and its reference when it has one', () => {
    const withReference = new ApiError(500, 'internal_error', 'something failed', [], 'abc');
    assert.equal(
      describeFailure(withReference),
      'something failed [internal_error] (reference abc)',
    );
    const without = new ApiError(409, 'entry_exists', 'an entry "a" exists already');
    assert.equal(describeFailure(without), 'an entry "a" exists already [entry_exists]');
  });

  test("the error's detail follows its sentence", () => {
    const weak = toApiError(400, {
      error: {
        code: 'password_weak',
        message: 'A new password is too short.',
        detail: 'the new password must be at least 12 characters',
      },
    });
    assert.equal(
      describeFailure(weak),
      'A new password is too short.: the new password must be at least 12 characters [password_weak]',
    );
  });

  test('a 401 for a missing second factor goes to the factor page, any other to the sign-in', () => {
    const here = '/_sso/admin/users?q=a';
    const noFactor = toApiError(401, {
      error: { code: 'second_factor_required', message: 'admin needs a second factor' },
    });
    assert.equal(
      signInAgainHref(noFactor, here),
      '/_sso/factor?return_to=%2F_sso%2Fadmin%2Fusers%3Fq%3Da',
    );
    const ended = toApiError(401, { error: { code: 'unauthenticated', message: 'no session' } });
    assert.equal(
      signInAgainHref(ended, here),
      '/_sso/login?return_to=%2F_sso%2Fadmin%2Fusers%3Fq%3Da',
    );
  });

  test('any other failure is described by its message', () => {
    assert.equal(describeFailure(new TypeError('Failed to fetch')), 'Failed to fetch');
    assert.equal(describeFailure('plain text'), 'plain text');
    assert.equal(describeFailure(undefined), 'undefined');
  });
});
