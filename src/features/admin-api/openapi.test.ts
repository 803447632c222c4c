import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { entryWithId } from '../../core/test-support/entries.js';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
  parameters?: { name: string; in: string }[];
}
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const methods = ['get', 'post', 'put', 'delete', 'patch'];

async function fetchDocument(api: ApiFixture): Promise<Document> {
  const response = await api.inject({ method: 'GET', url: '/_sso/api/openapi.json' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return json<Document>(response);
}

/** Every operation of the document as `METHOD /path/{param}`. */
function operations(document: Document): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, operation]): [string, string, Operation] => [
        method.toUpperCase(),
        path,
        operation,
      ]),
  );
}

/** A JSON pointer (RFC 6901) into the document, or undefined if nothing is there. */
function resolvePointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every value under the key `key`, with the pointer to the object holding it. */
function collect(value: unknown, key: string, at = '#'): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [];
  const found: [string, unknown][] = [];
  for (const [name, item] of Object.entries(value)) {
    const pointer = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (name === key) found.push([at, item]);
    found.push(...collect(item, key, pointer));
  }
  return found;
}

describe('the OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      const validator = new Validator();
      const result = await validator.validate(document);
      assert.deepEqual(result, { valid: true });
      assert.equal(validator.version, '3.1');

      assert.match(document.openapi, /^3\.1\.\d+$/);
      assert.equal(typeof document.info.title, 'string');
      assert.equal(typeof document.info.version, 'string');
      for (const [method, path, operation] of operations(document)) {
        assert.ok(
          Object.keys(operation.responses ?? {}).length > 0,
          `${method} ${path} has responses`,
        );
        // Path parameters are declared exactly as the path names them.
        const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const declared = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name);
        assert.deepEqual(declared, named, `${method} ${path} path parameters`);
      }
      const ids = operations(document).map(([, , operation]) => operation.operationId);
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    });
  });

  test('every $ref resolves and every schema compiles as JSON Schema 2020-12', async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      const refs = collect(document, '$ref');
      assert.ok(refs.length > 0);
      for (const [at, ref] of refs) {
        assert.equal(typeof ref, 'string', at);
        assert.match(String(ref), /^#\//, at);
        assert.notEqual(resolvePointer(document, String(ref)), undefined, `${at}: ${String(ref)}`);
      }
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema(document, 'openapi.json');
      const schemas = collect(document, 'schema').filter(([at]) => !at.includes('/schemas/'));
      assert.ok(schemas.length > 30);
      for (const [at] of schemas) {
        const validate = ajv.getSchema(`openapi.json${at}/schema`);
        assert.equal(typeof validate, 'function', at);
      }
      for (const name of Object.keys(document.components.schemas)) {
        assert.equal(
          typeof ajv.getSchema(`openapi.json#/components/schemas/${name}`),
          'function',
          name,
        );
      }
    });
  });

  test('documents the security schemes: bearer token, and cookie with the CSRF header for changes', async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), [
        'bearerToken',
        'csrfHeader',
        'sessionCookie',
      ]);
      for (const [method, path, operation] of operations(document)) {
        if (path === '/_sso/api/openapi.json') {
          assert.deepEqual(operation.security, []);
          continue;
        }
        const expected =
          method === 'GET'
            ? [{ bearerToken: [] }, { sessionCookie: [] }]
            : [{ bearerToken: [] }, { sessionCookie: [], csrfHeader: [] }];
        assert.deepEqual(operation.security, expected, `${method} ${path}`);
        for (const status of ['401', '403']) {
          assert.ok(operation.responses?.[status], `${method} ${path} ${status}`);
        }
      }
    });
  });

  test("lists every route registered under /_sso/api, and no other (Fastify's onRoute)", async () => {
    const registered: string[] = [];
    const onRoute = (route: RouteOptions) => {
      const routeMethods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of routeMethods) {
        // HEAD is Fastify's own twin of each GET; `*` is the JSON 404.
        if (method === 'HEAD' || !route.url.startsWith('/_sso/api/') || route.url === '/_sso/api/*')
          continue;
        registered.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    };
    await withApi(
      async (api) => {
        const document = await fetchDocument(api);
        const documented = operations(document).map(([method, path]) => `${method} ${path}`);
        assert.ok(registered.length > 20);
        assert.deepEqual(
          registered.filter((route) => !documented.includes(route)),
          [],
          'registered but not documented',
        );
        assert.deepEqual(
          documented.filter((route) => !registered.includes(route)),
          [],
          'documented but not registered',
        );
      },
      { onRoute },
    );
  });

  test('real answers fit their documented schemas', async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema(document, 'openapi.json');
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      await api.signIn('alice', false);
      const calls: [string, string, string, unknown?][] = [
        ['GET', '/_sso/api/entries', '/_sso/api/entries'],
        ['GET', '/_sso/api/entries/corp', '/_sso/api/entries/{id}'],
        ['POST', '/_sso/api/entries/corp/disable', '/_sso/api/entries/{id}/disable'],
        ['GET', '/_sso/api/users', '/_sso/api/users'],
        ['GET', '/_sso/api/audit', '/_sso/api/audit'],
        ['GET', '/_sso/api/tokens', '/_sso/api/tokens'],
        ['GET', '/_sso/api/entry-model', '/_sso/api/entry-model'],
        ['POST', '/_sso/api/entry-validation', '/_sso/api/entry-validation', { id: 'x' }],
        ['POST', '/_sso/api/tokens', '/_sso/api/tokens', { name: 'fresh' }],
        ['PUT', '/_sso/api/entry-order', '/_sso/api/entry-order', { ids: ['nope'] }],
      ];
      for (const [method, url, path, payload] of calls) {
        const response = await api.inject({
          method: method,
          url,
          headers: api.token,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        const status = String(response.statusCode);
        const pointer = `#/paths/${path.replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}`;
        const answer = resolvePointer(document, pointer) as
          { content?: Record<string, { schema: unknown }> } | undefined;
        assert.ok(answer, `${method} ${url} answered ${status}, which is not documented`);
        const validate = ajv.getSchema(`openapi.json${pointer}/content/application~1json/schema`);
        assert.ok(validate, pointer);
        assert.ok(
          validate(response.json()),
          `${method} ${url}: ${JSON.stringify(validate.errors)}`,
        );
      }
    });
  });

  test('the body of PUT /entries/{id} may clear either write-only secret with null', async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addSchema(document, 'openapi.json');
      const pointer =
        '#/paths/~1_sso~1api~1entries~1{id}/put/requestBody/content/application~1json/schema';
      const validate = ajv.getSchema(`openapi.json${pointer}`);
      assert.ok(validate, pointer);
      for (const secret of ['appsecret', 'extensionSecret']) {
        const body = { ...entryWithId('corp'), [secret]: null };
        assert.ok(validate(body), `${secret}: null: ${JSON.stringify(validate.errors)}`);
      }
    });
  });

  test("carries the package's version", async () => {
    await withApi(async (api) => {
      const document = await fetchDocument(api);
      // Compiled to build/src/features/admin-api/, so package.json is four levels up.
      const packageJson = JSON.parse(
        await readFile(fileURLToPath(new URL('../../../../package.json', import.meta.url)), 'utf8'),
      ) as { version: string };
      assert.equal(document.info.version, packageJson.version);
    });
  });

  test('is public: it describes routes, not data', async () => {
    await withApi(async (api) => {
      const response = await api.inject({ method: 'GET', url: '/_sso/api/openapi.json' });
      assert.equal(response.statusCode, 200);
      assert.doesNotMatch(response.body, /ssg_|CANARY/);
    });
  });
});
