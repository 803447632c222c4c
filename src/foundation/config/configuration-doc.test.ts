import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { settings } from './config-schema.js';

const configurationDoc = fileURLToPath(
  new URL('../../../../docs/configuration.md', import.meta.url),
);

test('every setting has a row in docs/configuration.md, and every row a setting', async () => {
  const text = await readFile(configurationDoc, 'utf8');
  const documented = new Set(
    [...text.matchAll(/^\| `((?:SSOGATE|OTEL)_[A-Z_]+)`/gm)].map((match) => match[1] ?? ''),
  );
  const variables = new Set<string>(Object.values(settings).map((setting) => setting.env));
  for (const variable of variables) assert.ok(documented.has(variable), `${variable} undocumented`);
  for (const variable of documented)
    assert.ok(variables.has(variable), `${variable} is no setting`);
});
