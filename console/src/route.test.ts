import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, routeOf } from './route.js';

describe('the page of a console path', () => {
  test('each page has its path, under the console base or without it', () => {
    const cases = [
      [BASE, { page: 'entries' }],
      [`${BASE}/`, { page: 'entries' }],
      [`${BASE}/entries`, { page: 'entries' }],
      [`${BASE}/entries/new`, { page: 'new-entry' }],
      [`${BASE}/entries/corp-sso`, { page: 'entry', id: 'corp-sso' }],
      [`${BASE}/applications`, { page: 'applications' }],
      [`${BASE}/applications/new`, { page: 'new-application' }],
      [`${BASE}/applications/grafana`, { page: 'application', id: 'grafana' }],
      [`${BASE}/users`, { page: 'users' }],
      [`${BASE}/audit/`, { page: 'audit' }],
      [`${BASE}/tokens`, { page: 'tokens' }],
      [`${BASE}/password`, { page: 'password' }],
      ['/entries/corp-sso', { page: 'entry', id: 'corp-sso' }],
      ['', { page: 'entries' }],
    ] as const;
    for (const [path, route] of cases) assert.deepEqual(routeOf(path), route, path);
  });

  test("an entry's id is read percent-decoded", () => {
    assert.deepEqual(routeOf(`${BASE}/entries/a%20b%2Fc`), { page: 'entry', id: 'a b/c' });
  });

  test('any other path is an unknown page', () => {
    for (const path of [
      `${BASE}/entries/new/extra`,
      `${BASE}/entries/corp-sso/edit`,
      `${BASE}/users/1`,
      `${BASE}/settings`,
      `${BASE}/new`,
      '/_sso/administrator/users',
      // A malformed percent-encoding is a page that does not exist, not a crash.
      `${BASE}/entries/%E0`,
      `${BASE}/entries/%`,
      `${BASE}/applications/grafana/secret`,
      `${BASE}/applications/%E0`,
    ]) {
      assert.deepEqual(routeOf(path), { page: 'unknown' }, path);
    }
  });
});
