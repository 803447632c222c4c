import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app/build-app.js';
import { createGateway } from '../../app/create-gateway.js';
import type { AppGateway } from '../../app/create-gateway.js';
import { openStorage } from '../../app/open-storage.js';
import { loadConfig } from '../../foundation/config/load-config.js';
import { createSession, csrfTokenFor } from '../sessions/session-service.js';
import type { GatewayStorage } from '../../app/open-storage.js';
import type { TestBackend } from '../../test-support/test-backend.js';
import { testBackend } from '../../test-support/test-backend.js';
import { cookieNames } from '../../foundation/web/index.js';
import { defaultConsoleDir } from './console-files.js';

const page = { accept: 'text/html,application/xhtml+xml' };
const script = 'console.log("console")';

/** A console build as Vite lays it out: index.html and hashed assets. */
async function fakeBuild(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8" />' +
      '<script type="module" crossorigin src="/_sso/admin/assets/index-AbC123.js"></script>' +
      '</head><body><div id="root"></div></body></html>',
  );
  await writeFile(join(dir, 'assets', 'index-AbC123.js'), script);
  await writeFile(join(dir, 'secret.txt'), 'outside the assets folder');
}

describe('GET /_sso/admin: the console page', () => {
  let dataDir: string;
  let backend: TestBackend;
  let storage: GatewayStorage;
  let gateway: AppGateway;
  let app: FastifyInstance;
  let missing: FastifyInstance;
  const now = Date.parse('2024-05-01T12:00:00Z');

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssogate-console-'));
    await fakeBuild(join(dataDir, 'console'));
    backend = await testBackend();
    const config = loadConfig({
      ...backend.env,
      SSOGATE_DATA_DIR: dataDir,
      SSOGATE_LOG_LEVEL: 'silent',
    });
    storage = await openStorage(config);
    gateway = createGateway(config, storage, { clock: () => now });
    app = await buildApp(gateway, { consoleDir: join(dataDir, 'console') });
    missing = await buildApp(gateway, { consoleDir: join(dataDir, 'not-built') });
  });

  after(async () => {
    await app.close();
    await missing.close();
    await storage.close();
    await backend.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signIn(userId: string, isAdmin: boolean): Promise<string> {
    const { user } = await storage.users.insertIfAbsent(
      { userId, sourceEntryId: null, isAdmin },
      now,
    );
    return createSession(gateway.sessions, user, null, undefined);
  }

  const cookie = (sessionId: string) => ({ cookie: `${cookieNames(false).session}=${sessionId}` });

  test("an administrator gets index.html with the session's CSRF token, the public URL and the console's policy", async () => {
    const sessionId = await signIn('root', true);
    for (const url of ['/_sso/admin', '/_sso/admin/', '/_sso/admin/entries/new?x=1']) {
      const response = await app.inject({ url, headers: { ...page, ...cookie(sessionId) } });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.ok(
        response.body.includes(
          `<head><meta name="csrf-token" content="${csrfTokenFor(sessionId)}" />`,
        ),
      );
      // The callback URL the form shows is built from it, whatever address the page was opened at.
      assert.ok(
        response.body.includes('<meta name="public-url" content="http://localhost:8080" />'),
      );
      assert.match(response.body, /<div id="root">/);
      const policy = String(response.headers['content-security-policy']);
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.match(policy, /connect-src 'self'(;|$)/);
      assert.match(policy, /frame-ancestors 'none'/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    }
  });

  test('without a session, a page load goes to sign in and comes back here', async () => {
    const response = await app.inject({ url: '/_sso/admin/users?search=bo', headers: page });
    assert.equal(response.statusCode, 302);
    assert.equal(
      response.headers.location,
      `/_sso/login?return_to=${encodeURIComponent('/_sso/admin/users?search=bo')}`,
    );
    const script = await app.inject({ url: '/_sso/admin/assets/index-AbC123.js' });
    assert.equal(script.statusCode, 401);
    assert.equal(script.json<{ error: { code: string } }>().error.code, 'unauthenticated');
  });

  test('an ended or unknown session is no session', async () => {
    const response = await app.inject({
      url: '/_sso/admin',
      headers: { ...page, ...cookie('A'.repeat(43)) },
    });
    assert.equal(response.statusCode, 302);
  });

  test('a signed-in user who is not an administrator gets the coded 403 page', async () => {
    const sessionId = await signIn('mallory', false);
    const response = await app.inject({
      url: '/_sso/admin',
      headers: { ...page, ...cookie(sessionId) },
    });
    assert.equal(response.statusCode, 403);
    assert.match(response.body, /Error code: <code>forbidden<\/code>/);
    assert.doesNotMatch(response.body, /csrf-token/);
    // Who they are and a way out, not a way to sign in (they already are).
    assert.match(response.body, /Signed in as <strong>mallory<\/strong>/);
    assert.match(response.body, /<form method="post" action="\/_sso\/logout">/);
    assert.ok(response.body.includes(`value="${csrfTokenFor(sessionId)}"`));
    assert.match(response.body, />Sign out here</);
    assert.match(response.body, />Sign out everywhere</);
    assert.doesNotMatch(response.body, /Choose another way to sign in|Try again/);
    const asset = await app.inject({
      url: '/_sso/admin/assets/index-AbC123.js',
      headers: cookie(sessionId),
    });
    assert.equal(asset.statusCode, 403);
  });

  test('assets: served with a long private cache; unknown or escaping names are 404', async () => {
    const sessionId = await signIn('admin2', true);
    const asset = await app.inject({
      url: '/_sso/admin/assets/index-AbC123.js',
      headers: cookie(sessionId),
    });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.body, script);
    assert.match(String(asset.headers['content-type']), /^text\/javascript/);
    assert.equal(asset.headers['cache-control'], 'private, max-age=31536000, immutable');

    for (const url of [
      '/_sso/admin/assets/index-Missing.js',
      '/_sso/admin/assets/..%2Fsecret.txt',
      '/_sso/admin/assets/..%2F..%2Fpackage.json',
      '/_sso/admin/assets/sub/index-AbC123.js',
      '/_sso/admin/assets/index-AbC123.exe',
    ]) {
      const response = await app.inject({ url, headers: cookie(sessionId) });
      assert.equal(response.statusCode, 404, url);
      assert.doesNotMatch(response.body, /outside the assets folder/);
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'not_found');
    }
    // Dot segments are resolved before routing: this is the console's page, not the file.
    const dotted = await app.inject({
      url: '/_sso/admin/assets/%2e%2e/secret.txt',
      headers: { ...page, ...cookie(sessionId) },
    });
    assert.doesNotMatch(dotted.body, /outside the assets folder/);
  });

  test('only GET: anything else under /_sso/admin is not found', async () => {
    const sessionId = await signIn('admin3', true);
    const response = await app.inject({
      method: 'POST',
      url: '/_sso/admin',
      headers: cookie(sessionId),
    });
    assert.equal(response.statusCode, 404);
  });

  test('a console that was never built is a coded page, not a crash', async () => {
    const sessionId = await signIn('admin4', true);
    const response = await missing.inject({
      url: '/_sso/admin',
      headers: { ...page, ...cookie(sessionId) },
    });
    assert.equal(response.statusCode, 503);
    assert.match(response.body, /console_not_built/);
    assert.match(response.body, /npm run build:console/);
  });

  test('by default the console is dist/console/ at the package root', () => {
    const dir = defaultConsoleDir();
    assert.match(dir, /[\\/]dist[\\/]console$/);
    assert.ok(existsSync(join(dirname(dirname(dir)), 'package.json')));
  });
});
