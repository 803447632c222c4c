import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test-support/free-port.js';

const run = promisify(execFile);

/**
 * A gateway started in a process of its own with the default settings (an
 * SQLite file, no Redis, no metrics, no traces, no configuration file, no
 * entries), asked /_sso/healthz, then stopped: it prints every module the
 * process loaded, as the module loader's hook saw them (require and import
 * alike), so nothing loaded earlier by the test runner is counted.
 */
const child = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
const [dataDir, port] = process.argv.slice(-2);
const { loadConfig } = await import(new URL('../foundation/config/load-config.js', process.env.APP_URL).href);
const { startGateway } = await import(new URL('./start-gateway.js', process.env.APP_URL).href);
const config = loadConfig(
  { SSOGATE_DATA_DIR: dataDir, SSOGATE_PORT: port, SSOGATE_HOST: '127.0.0.1', SSOGATE_LOG_LEVEL: 'silent' },
  dataDir,
);
const gateway = await startGateway(config, { announce: () => {} });
const health = await fetch(gateway.address + '/_sso/healthz');
if (health.status !== 200) throw new Error('healthz answered ' + health.status);
await gateway.close();
process.stdout.write(JSON.stringify(loaded));
`;

/** The packages of the module URLs, e.g. `kysely`, `@opentelemetry/api`. */
function packagesOf(urls: readonly string[]): Set<string> {
  const packages = new Set<string>();
  for (const url of urls) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (name !== undefined) packages.add(name);
  }
  return packages;
}

test('a gateway with the default settings loads no module for what it is not configured to use', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-modules-'));
  try {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '--eval', child, '--', dataDir, String(await freePort())],
      { env: { ...process.env, APP_URL: new URL('.', import.meta.url).href } },
    );
    const packages = packagesOf(JSON.parse(stdout) as string[]);
    // What it does use was seen: the list is the process's own.
    for (const used of ['fastify', 'kysely', 'better-sqlite3'])
      assert.ok(packages.has(used), `${used} not seen among ${[...packages].join(', ')}`);
    const unused = [
      'pg', // PostgreSQL: SSOGATE_DATABASE_URL
      'ioredis', // Redis: SSOGATE_REDIS_URL
      'prom-client', // metrics: SSOGATE_METRICS_TOKEN or SSOGATE_METRICS_ADDRESS
      '@opentelemetry/api', // traces: the OTLP endpoint
      '@opentelemetry/sdk-trace-base',
      'undici', // calls to third-party servers: the first sign-in
      'jose', // the gateway's own OpenID Provider: its first signing key or token
      'yaml', // a configuration, rules or entries file
      '@node-saml/node-saml', // a SAML entry: its first sign-in or metadata request
      'xml-crypto',
      '@xmldom/xmldom',
      // A route with a Fastify schema: none has one. (Fastify's error
      // serializer loads a file of fast-json-stringify whatever the routes.)
      '@fastify/ajv-compiler',
      '@fastify/fast-json-stringify-compiler',
      'ajv',
    ];
    assert.deepEqual(
      unused.filter((name) => packages.has(name)),
      [],
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
