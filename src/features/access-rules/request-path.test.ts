import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseTarget } from './request-path.js';

describe('normaliseTarget', () => {
  test('decodes once, resolves dot segments (RFC 3986 section 5.2.4) and folds repeated slashes', () => {
    for (const [target, path, wirePath, search] of [
      ['/', '/', '/', ''],
      ['/admin/', '/admin/', '/admin/', ''],
      ['//admin', '/admin', '/admin', ''],
      ['/./admin', '/admin', '/admin', ''],
      ['/x/../admin', '/admin', '/admin', ''],
      ['/x/%2e%2E/admin', '/admin', '/admin', ''],
      ['/../../admin', '/admin', '/admin', ''],
      ['/a/b/..', '/a/', '/a/', ''],
      ['/a/b/.', '/a/b/', '/a/b/', ''],
      ['/..', '/', '/', ''],
      ['/%61dmin?x=%2F&y=a/../b', '/admin', '/admin', '?x=%2F&y=a/../b'],
      ['/ADMIN', '/ADMIN', '/ADMIN', ''],
      ['/caf%c3%a9', '/café', '/caf%C3%A9', ''],
      ['/a%20b/c+d/e:f@g/%7Eu', '/a b/c+d/e:f@g/~u', '/a%20b/c+d/e:f@g/~u', ''],
      ['/100%25', '/100%', '/100%25', ''],
      ['/page#part', '/page', '/page', ''],
    ])
      assert.deepEqual(normaliseTarget(target ?? ''), { path, wirePath, search }, target);
  });

  test('refuses what another server could read as another path', () => {
    for (const [target, why] of [
      ['admin', /not a path/],
      ['/admin%2f..', /escaped slash/],
      ['/admin%2F..', /escaped slash/],
      ['/admin%5c..', /escaped slash/],
      ['/x\\..\\admin', /backslash/],
      ['/%2561dmin', /escaped twice/],
      ['/%252e%252e/admin', /escaped twice/],
      ['/admin%00', /control/],
      ['/admin%0d%0a', /control/],
      ['/admin%7f', /control/],
      ['/admin\u0001', /control character/],
      ['/admin x', /space/],
      ['/café', /outside ASCII/],
      ['/admin;x', /; parameter/],
      ['/admin..;/', /; parameter/],
      ['/admin%3bx', /; parameter/],
      ['/admin.', /ends in a dot or a space/],
      ['/admin./x', /ends in a dot or a space/],
      ['/admin%2e', /ends in a dot or a space/],
      ['/admin%20', /ends in a dot or a space/],
      ['/...', /ends in a dot or a space/],
      ['/admin%', /malformed/],
      ['/admin%zz', /malformed/],
      ['/admin%c3', /malformed/],
    ]) {
      const result = normaliseTarget(String(target));
      assert.ok('refused' in result, `${String(target)} was let through`);
      assert.match(result.refused, why as RegExp, String(target));
    }
  });

  test('a path read without the full steps reads as it does with them', () => {
    // A leading `.` segment changes no path (RFC 3986 section 5.2.4) and
    // takes the full steps, so both readings must agree, refusals included.
    const segment = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '_', '~', '-', '.', '%', '2', 'e', ';', ' '),
      maxLength: 6,
    });
    const target = fc
      .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean(), fc.constantFrom('', '?q=1'))
      .map(([segments, slash, query]) => `/${segments.join('/')}${slash ? '/' : ''}${query}`);
    fc.assert(
      fc.property(target, (path) => {
        assert.deepEqual(normaliseTarget(path), normaliseTarget(`/.${path}`), path);
      }),
      { numRuns: 2_000 },
    );
  });
});
