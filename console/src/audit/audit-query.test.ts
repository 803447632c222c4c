import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auditQuery, noFilters } from './audit-query.js';

describe('the audit query of the filters', () => {
  test('no filter asks for the newest page', () => {
    assert.equal(auditQuery(noFilters, 50, undefined).toString(), 'limit=50');
  });

  test('each filter is sent under its name; the user id is trimmed', () => {
    const query = auditQuery(
      {
        entryId: 'corp-sso',
        outcome: 'failure',
        kind: 'sign_in',
        userId: '  alice ',
        reference: ' 7kq2m9xc4d ',
        since: '2024-05-01T12:00',
        until: '2024-05-02T08:30',
      },
      25,
      1234,
    );
    assert.deepEqual(Object.fromEntries(query), {
      limit: '25',
      entryId: 'corp-sso',
      outcome: 'failure',
      kind: 'sign_in',
      userId: 'alice',
      reference: '7KQ2M9XC4D',
      // datetime-local values are the reader's local time, sent in UTC.
      since: new Date('2024-05-01T12:00').toISOString(),
      until: new Date('2024-05-02T08:30').toISOString(),
      before: '1234',
    });
  });

  test('a blank user id or a time the browser cannot read is not sent', () => {
    const query = auditQuery(
      { ...noFilters, userId: '   ', since: 'not a time', until: '2024-13-45T99:00' },
      50,
      undefined,
    );
    assert.equal(query.toString(), 'limit=50');
  });

  test('values are encoded for the query string', () => {
    const query = auditQuery({ ...noFilters, userId: 'a&b=c d' }, 10, undefined);
    assert.equal(query.toString(), 'limit=10&userId=a%26b%3Dc+d');
  });
});
