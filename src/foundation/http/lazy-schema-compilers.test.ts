import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';

test('a route with a Fastify schema is validated and serialized by compilers loaded on first use', async () => {
  const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
  app.post(
    '/echo',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 5 } },
        },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    (request) => ({ ...(request.body as object), notInTheSchema: 'dropped' }),
  );
  try {
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'ann' } });
    assert.equal(ok.statusCode, 200);
    // The response schema's serializer leaves out what it does not name.
    assert.deepEqual(ok.json(), { name: 'ann' });
    const refused = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { name: 'too long' },
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /maxLength|must NOT have more than 5 characters/);
  } finally {
    await app.close();
  }
});
