import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect } from 'node:net';
import { parse } from 'yaml';
import { freePort } from './test-support/free-port.js';
import { knownSettingNames } from './test-support/known-settings.js';
import { waitUntil } from './test-support/wait-until.js';

// Compiled to build/src/, so the repository is two levels up.
const deployFolder = fileURLToPath(new URL('../../deploy/', import.meta.url));
const nginxBinary = '/usr/sbin/nginx';
const noNginx = existsSync(nginxBinary) ? false : `${nginxBinary} is not installed`;

interface Service {
  readonly command?: string[];
  readonly healthcheck?: { test: string[] };
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
  assert.match(
    environment.SSOGATE_REDIS_URL ?? '',
    /^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/,
    "the gateways send Redis's password",
  );
  assert.match(services.redis?.environment?.REDIS_PASSWORD ?? '', /^\$\{REDIS_PASSWORD:\?/);
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

const redisServer = '/usr/bin/redis-server';

/** The first reply line of Redis on loopback `port` to `commands` (inline commands, RESP). */
function redisReply(port: number, ...commands: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let replies = '';
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end(commands.map((command) => `${command}\r\n`).join(''));
    });
    socket.on('data', (chunk: Buffer) => (replies += chunk.toString()));
    socket.on('end', () => {
      resolve(replies.trim().split('\r\n').at(-1) ?? '');
    });
    socket.on('error', reject);
  });
}

/** compose.yaml's Redis command on loopback `port`; resolves once it answers. */
async function composeRedisOn(port: number, password: string): Promise<ChildProcess> {
  const services = await composeServices();
  const [shell = '', flag = '', script = ''] = services.redis?.command ?? [];
  // Compose turns $$ into $ before the container's shell sees it.
  const local = script
    .replaceAll('$$', '$')
    .replace('--appendonly no', `--appendonly no --port ${port} --bind 127.0.0.1`);
  assert.match(local, /--port/, 'the command sets Redis options');
  const redis = spawn(shell, [flag, local], {
    env: { PATH: process.env.PATH ?? '', REDIS_PASSWORD: password },
    stdio: 'ignore',
  });
  try {
    await waitUntil(
      () =>
        redisReply(port, 'QUIT').then(
          () => true,
          () => false,
        ),
      { message: 'the compose Redis command to listen', timeoutMs: 5000, intervalMs: 100 },
    );
    return redis;
  } catch {
    redis.kill();
    throw new Error('the compose Redis command did not start');
  }
}

test(
  "deploy/compose.yaml's Redis asks for the password the gateways send",
  { skip: existsSync(redisServer) ? false : `${redisServer} is not installed` },
  async () => {
    const port = await freePort();
    const password = 'c0ffee'.repeat(5);
    const redis = await composeRedisOn(port, password);
    try {
      assert.match(await redisReply(port, 'PING'), /^-NOAUTH/);
      const services = await composeServices();
      const url = new URL(
        (services['gateway-1']?.environment?.SSOGATE_REDIS_URL ?? '').replace(
          /\$\{REDIS_PASSWORD:\?[^}]+\}/,
          password,
        ),
      );
      assert.equal(await redisReply(port, `AUTH ${url.password}`, 'PING'), '+PONG');
      const check = (services.redis?.healthcheck?.test ?? []).slice(1).join(' ');
      await promisify(execFile)(
        'sh',
        ['-c', check.replaceAll('$$', '$').replace('redis-cli', `redis-cli -p ${port}`)],
        { env: { PATH: process.env.PATH ?? '', REDIS_PASSWORD: password } },
      );
    } finally {
      redis.kill();
    }
  },
);
