import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SsogateError } from '../../core/index.js';
import { isBackendUnavailable } from './backend-errors.js';
import { ReplicaUnconfirmedError } from './redis/replica-confirmed-writes.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('isBackendUnavailable', () => {
  for (const code of [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EHOSTUNREACH',
    'EAI_AGAIN',
  ]) {
    test(`Node system error ${code}`, () => {
      assert.equal(isBackendUnavailable(withCode(`connect ${code} 127.0.0.1:5432`, code)), true);
    });
  }

  for (const code of ['08000', '08003', '08006', '08001', '08004', '57P01', '57P02', '57P03']) {
    test(`PostgreSQL SQLSTATE ${code}`, () => {
      assert.equal(isBackendUnavailable(withCode('server said no', code)), true);
    });
  }

  test('other SQLSTATEs are not an outage', () => {
    for (const code of ['23505', '42P01', '40001', '57014', '22P02']) {
      assert.equal(isBackendUnavailable(withCode('query failed', code)), false, code);
    }
  });

  for (const message of [
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ]) {
    test(`pg message: ${message}`, () => {
      assert.equal(isBackendUnavailable(new Error(message)), true);
    });
  }

  for (const message of [
    'Connection is closed.',
    "Stream isn't writeable and enableOfflineQueue options is false",
    'Command timed out',
    "READONLY You can't write against a read only replica.",
    'NOREPLICAS Not enough good replicas to write.',
  ]) {
    test(`ioredis message: ${message}`, () => {
      assert.equal(isBackendUnavailable(new Error(message)), true);
    });
  }

  test('ioredis MaxRetriesPerRequestError, by name and by message', () => {
    class MaxRetriesPerRequestError extends Error {
      override name = 'MaxRetriesPerRequestError';
    }
    assert.equal(isBackendUnavailable(new MaxRetriesPerRequestError('')), true);
    assert.equal(
      isBackendUnavailable(
        new Error(
          'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
        ),
      ),
      true,
    );
  });

  test('a MULTI refused for want of replicas (EXECABORT, its refusals in previousErrors)', () => {
    const aborted = Object.assign(
      new Error('EXECABORT Transaction discarded because of previous errors.'),
      { previousErrors: [new Error('NOREPLICAS Not enough good replicas to write.')] },
    );
    assert.equal(isBackendUnavailable(aborted), true);
    const refused = Object.assign(new Error('EXECABORT Transaction discarded'), {
      previousErrors: [new Error('WRONGTYPE Operation against a key holding the wrong kind')],
    });
    assert.equal(isBackendUnavailable(refused), false);
  });

  test('a Redis write no replica confirmed (ReplicaUnconfirmedError)', () => {
    assert.equal(isBackendUnavailable(new ReplicaUnconfirmedError('no replica confirmed')), true);
  });

  test('found down a cause chain', () => {
    const socket = withCode('connect ECONNREFUSED 127.0.0.1:6379', 'ECONNREFUSED');
    const wrapped = new Error('outer', { cause: new Error('middle', { cause: socket }) });
    assert.equal(isBackendUnavailable(wrapped), true);
  });

  test('found among an AggregateError’s errors (happy eyeballs)', () => {
    const aggregate = new AggregateError(
      [new Error('unrelated'), withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')],
      '',
    );
    assert.equal(isBackendUnavailable(aggregate), true);
    assert.equal(isBackendUnavailable(new Error('outer', { cause: aggregate })), true);
  });

  test('ordinary errors and non-errors are not an outage', () => {
    assert.equal(isBackendUnavailable(new Error('boom')), false);
    assert.equal(isBackendUnavailable(new TypeError('x is undefined')), false);
    assert.equal(isBackendUnavailable(withCode('no such file', 'ENOENT')), false);
    assert.equal(isBackendUnavailable(new SsogateError('not_found', 'nothing')), false);
    assert.equal(isBackendUnavailable(undefined), false);
    assert.equal(isBackendUnavailable(null), false);
    assert.equal(isBackendUnavailable('ECONNREFUSED'), false);
    assert.equal(isBackendUnavailable({ code: 8006 }), false);
  });

  test('a cause cycle ends the search', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    assert.equal(isBackendUnavailable(a), false);
  });
});
