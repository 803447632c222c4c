import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { knownSettingNames } from './test-support/known-settings.js';

// Compiled to build/src/, so the repository is two levels up.
const atRoot = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
async function instructions(): Promise<{ keyword: string; rest: string }[]> {
  const text = await readFile(atRoot('Dockerfile'), 'utf8');
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.trim().split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(' ') };
    });
}

test('the Dockerfile builds in stages and runs production modules as a user, not root', async () => {
  const all = await instructions();
  const stages = all.filter(({ keyword }) => keyword === 'FROM');
  assert.ok(stages.length >= 2, 'a multi-stage build');
  // The runtime stage: everything after the last FROM.
  const lastFrom = all.lastIndexOf(stages.at(-1) ?? { keyword: '', rest: '' });
  const runtime = all.slice(lastFrom);
  assert.match(
    all.find(({ keyword }) => keyword === 'ARG')?.rest ?? '',
    /^NODE_IMAGE=node:24-bookworm-slim$/,
  );
  assert.ok(
    all.some(({ keyword, rest }) => keyword === 'RUN' && /npm (ci|prune) .*--omit=dev/.test(rest)),
  );
  assert.ok(
    all.some(({ keyword, rest }) => keyword === 'RUN' && /npm run build\b/.test(rest)),
    'the console and the server are built',
  );
  const user = runtime.find(({ keyword }) => keyword === 'USER')?.rest ?? '';
  assert.match(user, /^[a-z][a-z0-9_-]*(:[a-z][a-z0-9_-]*)?$/);
  assert.doesNotMatch(user, /^root\b|^0\b/);
  assert.deepEqual(
    runtime.filter(({ keyword }) => keyword === 'VOLUME').map(({ rest }) => rest),
    ['["/data"]'],
  );
  assert.ok(
    runtime.some(
      ({ keyword, rest }) => keyword === 'ENV' && /SSOGATE_DATA_DIR=\/data\b/.test(rest),
    ),
  );
  assert.deepEqual(
    runtime.filter(({ keyword }) => keyword === 'STOPSIGNAL').map(({ rest }) => rest),
    ['SIGTERM'],
  );
});

test('the HEALTHCHECK asks the health route the gateway serves', async () => {
  const healthcheck =
    (await instructions()).find(({ keyword }) => keyword === 'HEALTHCHECK')?.rest ?? '';
  const route = /\/_sso\/[a-z]+/.exec(healthcheck)?.[0];
  assert.equal(route, '/_sso/healthz');
  const routes = await readFile(atRoot('src/features/portal/routes.ts'), 'utf8');
  assert.ok(
    routes.includes(`app.get('${route}'`),
    `${route} is not a route of src/features/portal/routes.ts`,
  );
});

test('the image sets only known settings and bakes in no secret', async () => {
  const text = await readFile(atRoot('Dockerfile'), 'utf8');
  for (const [variable] of text.matchAll(/\bSSOGATE_[A-Z_]+\b/g))
    assert.ok(knownSettingNames.has(variable), `${variable} is not a setting`);
  for (const secret of ['SSOGATE_SECRET_KEY', 'SSOGATE_ADMIN_PASSWORD', 'SSOGATE_METRICS_TOKEN']) {
    assert.doesNotMatch(text, new RegExp(`^\\s*(ENV|ARG)\\b.*\\b${secret}\\b`, 'm'), secret);
    assert.doesNotMatch(text, new RegExp(`${secret}=`), secret);
  }
  const ignored = await readFile(atRoot('.dockerignore'), 'utf8');
  for (const pattern of ['**', '**/.env*', '**/data', '**/*.key'])
    assert.ok(ignored.split('\n').includes(pattern), `.dockerignore lacks ${pattern}`);
});
