import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { knownSettingNames } from './test-support/known-settings.js';

// Compiled to build/src/, so the repository is two levels up.
const deployFolder = fileURLToPath(new URL('../../deploy/', import.meta.url));
const nginxBinary = '/usr/sbin/nginx';
const noNginx = existsSync(nginxBinary) ? false : `${nginxBinary} is not installed`;

interface Service {
  readonly environment?: Record<string, string>;
  readonly networks?: Record<string, { ipv4_address?: string }> | string[];
  readonly read_only?: boolean;
  readonly volumes?: string[];
}

async function composeServices(): Promise<Record<string, Service>> {
  const text = await readFile(join(deployFolder, 'compose.yaml'), 'utf8');
  // Compose reads YAML 1.2 with merge keys (<<), which the two gateways share.
  const document = parse(text, { merge: true }) as { services: Record<string, Service> };
  return document.services;
}

test('deploy/compose.yaml sets only settings the gateway knows, and no secret', async () => {
  const services = await composeServices();
  const gateways = Object.keys(services).filter((name) => name.startsWith('gateway-'));
  assert.deepEqual(gateways, ['gateway-1', 'gateway-2']);
  for (const [name, service] of Object.entries(services)) {
    for (const [variable, value] of Object.entries(service.environment ?? {})) {
      if (variable.startsWith('SSOGATE_'))
        assert.ok(knownSettingNames.has(variable), `${name}: ${variable} is not a setting`);
      // Passwords and keys come from the environment of `compose up`, never from the file.
      if (/SECRET|PASSWORD/.test(variable))
        assert.match(value, /^\$\{[A-Z_]+:\?[^}]+\}$/, `${name}: ${variable}`);
    }
  }
  const gateway = services['gateway-1'];
  assert.equal(gateway?.read_only, true);
  assert.deepEqual(gateway.volumes, ['gateway-data:/data']);
  const environment = gateway.environment ?? {};
  assert.match(environment.SSOGATE_DATABASE_URL ?? '', /^postgres:\/\/.*@postgres:5432\//);
  assert.equal(environment.SSOGATE_REDIS_URL, 'redis://redis:6379');
  assert.match(environment.SSOGATE_PUBLIC_URL ?? '', /^https:\/\//);
  // The address whose X-Forwarded-For the gateways believe is nginx's.
  const nginxNetworks = services.nginx?.networks as Record<string, { ipv4_address?: string }>;
  assert.equal(environment.SSOGATE_TRUSTED_PROXIES, nginxNetworks.backend?.ipv4_address);
});

test(
  'deploy/nginx/nginx.conf balances both gateways, and nginx accepts it',
  { skip: noNginx },
  async () => {
    const services = await composeServices();
    const conf = await readFile(join(deployFolder, 'nginx', 'nginx.conf'), 'utf8');
    for (const name of Object.keys(services).filter((service) => service.startsWith('gateway-')))
      assert.match(conf, new RegExp(`^\\s*server ${name}:8080\\b`, 'm'), name);
    const folder = await mkdtemp(join(tmpdir(), 'ssogate-nginx-conf-'));
    try {
      // Compose's service names resolve only on its network: loopback stands in.
      const local = conf
        .replace(/\bserver (gateway-\d|app):/g, 'server 127.0.0.1:')
        .replaceAll('/etc/nginx/certs', folder)
        .replaceAll('/var/log/nginx', folder);
      assert.doesNotMatch(local, /gateway-\d:|\bapp:80/);
      await writeFile(join(folder, 'nginx.conf'), local);
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          join(folder, 'tls.key'),
          '-out',
          join(folder, 'tls.crt'),
        ],
        { stdio: 'pipe' },
      );
      const { stderr } = await promisify(execFile)(nginxBinary, [
        '-t',
        '-c',
        join(folder, 'nginx.conf'),
        '-p',
        `${folder}/`,
        '-e',
        join(folder, 'error.log'),
      ]);
      assert.match(stderr, /test is successful/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
);
