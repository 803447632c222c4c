import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoPorts } from './demo-ports.js';

test('the demo ports default to 9090, 9191 and 9292 and follow the environment', () => {
  assert.deepEqual(demoPorts({}), { provider: 9090, extension: 9191, acme: 9292 });
  assert.deepEqual(
    demoPorts({
      SSOGATE_DEMO_PROVIDER_PORT: '19090',
      SSOGATE_DEMO_EXTENSION_PORT: '0',
      SSOGATE_DEMO_ACME_PORT: '',
    }),
    { provider: 19090, extension: 0, acme: 9292 },
  );
});

test('a bad port is named, every one at once', () => {
  assert.throws(
    () => demoPorts({ SSOGATE_DEMO_PROVIDER_PORT: 'http', SSOGATE_DEMO_ACME_PORT: '70000' }),
    /SSOGATE_DEMO_PROVIDER_PORT must be a port number.*"http".*SSOGATE_DEMO_ACME_PORT must be a port number.*"70000"/,
  );
});

test('the README documents each of them', async () => {
  const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');
  for (const name of [
    'SSOGATE_PORT',
    'SSOGATE_DEMO_PROVIDER_PORT',
    'SSOGATE_DEMO_EXTENSION_PORT',
    'SSOGATE_DEMO_ACME_PORT',
  ]) {
    assert.ok(readme.includes(name), name);
  }
});
