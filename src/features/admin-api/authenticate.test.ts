import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { json, withApi } from './test-support/api-fixtures.js';
import { entryWithId } from '../../core/test-support/entries.js';

const code = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string } }).error.code;

describe('admin API: authentication and authorization', () => {
  test('no credentials, a wrong scheme or an unknown token: 401', async () => {
    await withApi(async (api) => {
      for (const headers of [
        {},
        { authorization: 'Basic abc' },
        { authorization: 'Bearer ssg_nope' },
      ]) {
        const response = await api.inject({ method: 'GET', url: '/_sso/api/entries', headers });
        assert.equal(response.statusCode, 401);
        assert.equal(code(response), 'unauthenticated');
        assert.equal(response.headers['cache-control'], 'no-store');
      }
    });
  });

  test('a revoked token is refused; a used one records when', async () => {
    await withApi(async (api) => {
      const ok = await api.inject({ method: 'GET', url: '/_sso/api/users', headers: api.token });
      assert.equal(ok.statusCode, 200);
      const [used] = await api.storage.apiTokens.list();
      assert.equal(used?.lastUsedAt, api.gateway.clock());
      await api.storage.apiTokens.revoke('tok1', api.gateway.clock());
      const revoked = await api.inject({
        method: 'GET',
        url: '/_sso/api/users',
        headers: api.token,
      });
      assert.equal(revoked.statusCode, 401);
    });
  });

  test('a signed-in user who is not an administrator: 403 forbidden', async () => {
    await withApi(async (api) => {
      const { cookie, csrf } = await api.signIn('alice', false);
      for (const url of ['/_sso/api/entries', '/_sso/api/users', '/_sso/api/audit']) {
        const response = await api.inject({ method: 'GET', url, headers: cookie });
        assert.equal(response.statusCode, 403, url);
        assert.equal(code(response), 'forbidden');
      }
      const post = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: { ...cookie, ...csrf },
        payload: entryWithId('x'),
      });
      assert.equal(post.statusCode, 403);
    });
  });

  test('an administrator session reads freely but changes only with the CSRF header', async () => {
    await withApi(async (api) => {
      const { cookie, csrf } = await api.signIn('root', true);
      const read = await api.inject({ method: 'GET', url: '/_sso/api/entries', headers: cookie });
      assert.equal(read.statusCode, 200);

      const bare = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: cookie,
        payload: entryWithId('corp'),
      });
      assert.equal(bare.statusCode, 403);
      assert.equal(code(bare), 'csrf_failed');
      const wrong = await api.inject({
        method: 'DELETE',
        url: '/_sso/api/entries/corp',
        headers: { ...cookie, 'x-csrf-token': 'guess' },
      });
      assert.equal(code(wrong), 'csrf_failed');
      assert.equal(await api.storage.entries.get('corp'), undefined);

      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: { ...cookie, ...csrf },
        payload: entryWithId('corp'),
      });
      assert.equal(created.statusCode, 201);
      const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
      assert.equal(event?.actor, 'root');
    });
  });

  test('authorization comes before validation: a stranger learns nothing from a bad request', async () => {
    await withApi(async (api) => {
      const response = await api.inject({ method: 'GET', url: '/_sso/api/users?limit=9999' });
      assert.equal(response.statusCode, 401);
    });
  });

  test('an unknown API path answers JSON not_found', async () => {
    await withApi(async (api) => {
      const response = await api.inject({
        method: 'GET',
        url: '/_sso/api/nothing',
        headers: { ...api.token, accept: 'text/html' },
      });
      assert.equal(response.statusCode, 404);
      assert.equal(json<{ error: { code: string } }>(response).error.code, 'not_found');
    });
  });
});

describe('admin API: every documented route is guarded', () => {
  test('401 without credentials, 403 for a non-administrator, 403 csrf_failed for a change by cookie without the header', async () => {
    await withApi(async (api) => {
      const document = json<{ paths: Record<string, Record<string, unknown>> }>(
        await api.inject({ method: 'GET', url: '/_sso/api/openapi.json' }),
      );
      const user = await api.signIn('alice', false);
      const admin = await api.signIn('root', true);
      let checked = 0;
      for (const [path, item] of Object.entries(document.paths)) {
        if (path === '/_sso/api/openapi.json') continue;
        // Authentication comes before any look at the path: any value will do.
        const url = path.replace(/\{\w+\}/g, '1');
        for (const method of Object.keys(item)) {
          const verb = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE';
          const send = (headers: Record<string, string>) =>
            api.inject({
              method: verb,
              url,
              headers,
              ...(verb === 'GET' || verb === 'DELETE' ? {} : { payload: {} }),
            });
          const anonymous = await send({});
          assert.equal(anonymous.statusCode, 401, `${verb} ${path}`);
          assert.equal(code(anonymous), 'unauthenticated');
          const stranger = await send(user.cookie);
          assert.equal(stranger.statusCode, 403, `${verb} ${path}`);
          assert.equal(code(stranger), 'forbidden');
          if (verb !== 'GET') {
            const forged = await send(admin.cookie);
            assert.equal(forged.statusCode, 403, `${verb} ${path}`);
            assert.equal(code(forged), 'csrf_failed');
          }
          checked += 1;
        }
      }
      assert.ok(checked >= 26, `${checked} operations checked`);
    });
  });
});
