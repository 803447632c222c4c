import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { featureScope } from './feature-scope.js';

describe("a feature's scope", () => {
  test("its hooks reach its own routes only; the app's, set before, reach every feature", async () => {
    const app = Fastify();
    app.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('x-app', 'yes');
      return payload;
    });
    await featureScope(app, (scope) => {
      scope.addHook('preHandler', async (request, reply) => {
        if (request.headers['x-token'] !== 'right') return reply.code(403).send('refused');
        return undefined;
      });
      scope.get('/one', () => 'one');
    });
    await featureScope(app, (scope) => {
      scope.get('/two', () => 'two');
    });
    try {
      const refused = await app.inject({ method: 'GET', url: '/one' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.headers['x-app'], 'yes');
      const allowed = await app.inject({
        method: 'GET',
        url: '/one',
        headers: { 'x-token': 'right' },
      });
      assert.equal(allowed.body, 'one');
      const other = await app.inject({ method: 'GET', url: '/two' });
      assert.equal(other.statusCode, 200);
      assert.equal(other.body, 'two');
      assert.equal(other.headers['x-app'], 'yes');
    } finally {
      await app.close();
    }
  });

  test('it is loaded where it is registered: its routes exist before the app is ready', async () => {
    const app = Fastify();
    await featureScope(app, (scope) => {
      scope.get('/early', () => 'early');
    });
    try {
      assert.equal(app.hasRoute({ method: 'GET', url: '/early' }), true);
    } finally {
      await app.close();
    }
  });
});
