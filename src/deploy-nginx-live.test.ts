import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import type { CertificateFiles } from './cli/doctor/test-support/tls-provider.js';
import { makeCertificates } from './cli/doctor/test-support/tls-provider.js';
import type { EchoUpstream } from './features/reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from './features/reverse-proxy/test-support/upstream-fixture.js';
import { freePort } from './test-support/free-port.js';
import type { TestGateway } from './test-support/gateway-fixture.js';
import { startTestGateway } from './test-support/gateway-fixture.js';

// Compiled to build/src/, so the repository is two levels up.
const confFile = fileURLToPath(new URL('../../deploy/nginx/nginx.conf', import.meta.url));
const nginxBinary = '/usr/sbin/nginx';
const skip = existsSync(nginxBinary) ? false : `${nginxBinary} is not installed`;

/**
 * deploy/nginx/nginx.conf as Compose runs it, with loopback ports for the
 * service names, a test certificate, and its files in `folder`.
 */
function onLoopback(conf: string, folder: string, ports: Record<string, number>): string {
  const asRoot = process.getuid?.() === 0 ? 'user root;\n' : '';
  const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${folder}/${kind};`)
    .join('\n');
  return (
    asRoot +
    conf
      .replace(
        /server (gateway-1|gateway-2|app):\d+/g,
        (_, name: string) => `server 127.0.0.1:${ports[name] ?? 0}`,
      )
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.nginx ?? 0} ssl http2;`)
      .replaceAll('/etc/nginx/certs', folder)
      .replaceAll('/var/log/nginx', folder)
      .replace('pid /tmp/nginx.pid;', `pid ${folder}/nginx.pid;`)
      .replace('http {\n', `http {\n${temporary}\n`)
  );
}

/** Resolves once `port` accepts connections; rejects, with nginx's complaint, if it exits first. */
function listening(nginx: ChildProcess, port: number): Promise<void> {
  let complaint = '';
  nginx.stderr?.on('data', (chunk: Buffer) => {
    complaint += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let stopped = false;
    const exited = (): void => {
      stopped = true;
      reject(new Error(`nginx stopped: ${complaint}`));
    };
    nginx.once('exit', exited);
    const knock = (): void => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        nginx.off('exit', exited);
        resolve();
      });
      socket.once('error', () => {
        if (!stopped) setTimeout(knock, 100);
      });
    };
    knock();
  });
}

describe('deploy/nginx/nginx.conf in front of two gateways', { skip }, () => {
  let certificates: CertificateFiles;
  let gateways: TestGateway[];
  let app: EchoUpstream;
  let folder: string;
  let nginx: ChildProcess;
  let publicUrl: string;
  let client: Agent;

  before(async () => {
    certificates = await makeCertificates(30);
    client = new Agent({ connect: { ca: await readFile(certificates.caFile, 'utf8') } });
    const port = await freePort();
    publicUrl = `https://localhost:${port}`;
    const env = { SSOGATE_PUBLIC_URL: publicUrl, SSOGATE_TRUSTED_PROXIES: '127.0.0.1' };
    gateways = [
      await startTestGateway({
        entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
        env,
      }),
      await startTestGateway({
        entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
        env,
      }),
    ];
    app = await startEchoUpstream();
    folder = await mkdtemp(join(tmpdir(), 'ssogate-compose-nginx-'));
    await writeFile(join(folder, 'tls.crt'), certificates.certificate);
    await writeFile(join(folder, 'tls.key'), certificates.key, { mode: 0o600 });
    const ports = {
      nginx: port,
      'gateway-1': Number(new URL(gateways[0]?.url ?? '').port),
      'gateway-2': Number(new URL(gateways[1]?.url ?? '').port),
      app: Number(new URL(app.url).port),
    };
    await writeFile(
      join(folder, 'nginx.conf'),
      onLoopback(await readFile(confFile, 'utf8'), folder, ports),
    );
    nginx = spawn(
      nginxBinary,
      [
        '-p',
        `${folder}/`,
        '-c',
        join(folder, 'nginx.conf'),
        '-e',
        join(folder, 'error.log'),
        '-g',
        'daemon off;',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    await listening(nginx, port);
  });

  after(async () => {
    nginx.kill('SIGTERM');
    await new Promise((resolve) => nginx.once('exit', resolve));
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await app.close();
    await client.close();
    await certificates.remove();
    await rm(folder, { recursive: true, force: true });
  });

  test('a page load without a session is sent to sign in at the public URL; an API call gets 401', async () => {
    const page = await fetch(`${publicUrl}/reports?year=2024`, {
      dispatcher: client,
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(page.status, 302);
    const location = new URL(page.headers.get('location') ?? '');
    assert.equal(location.origin, publicUrl);
    assert.match(location.pathname, /^\/_sso\/login\//);
    assert.equal(location.searchParams.get('return_to'), '/reports?year=2024');
    const api = await fetch(`${publicUrl}/api/data`, {
      dispatcher: client,
      headers: { accept: 'application/json' },
    });
    assert.equal(api.status, 401);
    assert.equal(app.seen.length, 0, 'nothing reached the application');
  });

  test('with one gateway stopped, the other answers every request', async () => {
    await gateways[0]?.app.close();
    for (let request = 0; request < 4; request += 1) {
      const health = await fetch(`${publicUrl}/_sso/healthz`, { dispatcher: client });
      assert.equal(health.status, 200);
    }
  });
});
