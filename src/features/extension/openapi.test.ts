import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { extensionOpenApi } from './openapi.js';
import { authorizeUrlAnswer, callbackAnswer, errorAnswer } from './schemas.js';

// Compiled to build/src/features/extension/, so the docs are four levels up.
const documentPath = fileURLToPath(new URL('../../../../docs/extension-api.yaml', import.meta.url));

describe('the extension contract document', () => {
  test('docs/extension-api.yaml is the document generated from the schemas', async () => {
    const written: unknown = parse(await readFile(documentPath, 'utf8'));
    assert.deepEqual(
      written,
      extensionOpenApi(),
      'regenerate it: node build/src/features/extension/print-openapi.js > docs/extension-api.yaml',
    );
  });

  test('answer schemas are closed: the document allows no field the gateway would refuse', () => {
    const schemas = (extensionOpenApi().components as { schemas: Record<string, unknown> })
      .schemas as Record<string, { additionalProperties?: unknown; required?: string[] }>;
    for (const name of ['AuthorizeUrlAnswer', 'CallbackAnswer', 'HealthAnswer', 'ErrorAnswer']) {
      assert.equal(schemas[name]?.additionalProperties, false, name);
    }
    assert.deepEqual(schemas.CallbackAnswer?.required, ['user']);
    // And the schemas themselves refuse what the document refuses.
    assert.equal(authorizeUrlAnswer.safeParse({ url: 'https://a', extra: 1 }).success, false);
    assert.equal(callbackAnswer.safeParse({ user: { userId: 'a', role: 'admin' } }).success, false);
    assert.equal(
      errorAnswer.safeParse({ error: { code: 'Bad Code', message: '' } }).success,
      false,
    );
  });
});
