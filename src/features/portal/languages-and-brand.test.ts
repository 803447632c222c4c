import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../foundation/config/load-config.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function page(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { accept: 'text/html', ...headers } });
  return { response, body: await response.text() };
}

describe('languages, the mark and the organisation on a gateway', () => {
  let gw: TestGateway;
  let folder: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'ssogate-brand-'));
    await writeFile(join(folder, 'logo.png'), PNG);
    gw = await startTestGateway({
      entries: (presets) => [presets.standard],
      env: {
        SSOGATE_ORGANIZATION_NAME: 'Acme 集团',
        SSOGATE_ORGANIZATION_LOGO_FILE: join(folder, 'logo.png'),
      },
    });
  });

  after(async () => {
    await gw.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('a browser’s /favicon.ico gets the mark without signing in, as does the mark’s own path', async () => {
    for (const path of ['/favicon.ico', '/_sso/assets/mark.svg']) {
      const response = await fetch(`${gw.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'image/svg+xml');
      assert.match(response.headers.get('content-security-policy') ?? '', /sandbox/);
      assert.match(await response.text(), /^<svg /);
    }
  });

  test('the chooser follows Accept-Language, with the organisation above it', async () => {
    const { body } = await page(`${gw.url}/_sso/login`, {
      'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
    });
    assert.match(body, /<html lang="zh-CN">/);
    assert.match(body, /<h1>登录<\/h1>/);
    assert.match(body, /<span>Acme 集团<\/span>/);
    assert.match(body, /<link rel="icon" href="\/_sso\/assets\/mark.svg"/);
    const english = await page(`${gw.url}/_sso/login`, { 'accept-language': 'en-US' });
    assert.match(english.body, /<html lang="en">/);
  });

  test('the logo is served as the image it is', async () => {
    const response = await fetch(`${gw.url}/_sso/assets/logo`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), PNG);
  });

  test('the switch sets a readable, Lax cookie for a year and goes back; the cookie then wins', async () => {
    const response = await fetch(
      `${gw.url}/_sso/language/en?return_to=${encodeURIComponent('/_sso/login?return_to=%2Fwiki')}`,
      { redirect: 'manual' },
    );
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/_sso/login?return_to=%2Fwiki');
    const cookie = response.headers.getSetCookie()[0] ?? '';
    assert.match(cookie, /^ssogate_language=en; Max-Age=31536000; Path=\/; SameSite=Lax$/);
    const { body } = await page(`${gw.url}/_sso/login`, {
      'accept-language': 'zh-CN',
      cookie: 'ssogate_language=en',
    });
    assert.match(body, /<html lang="en">/);
  });

  test('the switch goes nowhere but a same-origin path, and knows only our languages', async () => {
    const away = await fetch(`${gw.url}/_sso/language/zh-CN?return_to=//evil.example/`, {
      redirect: 'manual',
    });
    assert.equal(away.headers.get('location'), '/_sso/login');
    const unknown = await fetch(`${gw.url}/_sso/language/fr`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('set-cookie'), null);
  });

  test('an error page speaks the language and its switch comes back to the same address', async () => {
    const { response, body } = await page(`${gw.url}/_sso/nothing-here`, {
      cookie: 'ssogate_language=zh-CN',
    });
    assert.equal(response.status, 404);
    assert.match(body, /<h1>未找到<\/h1>/);
    assert.match(body, /此地址没有内容。/);
    assert.match(body, /错误代码： <code>not_found<\/code>/);
    assert.match(body, /href="\/_sso\/language\/en\?return_to=%2F_sso%2Fnothing-here"/);
  });

  test('the admin API keeps English messages whatever the language', async () => {
    const response = await fetch(`${gw.url}/_sso/me`, {
      headers: { accept: 'application/json', 'accept-language': 'zh-CN' },
    });
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'unauthenticated');
    assert.equal(body.error.message, 'You need to sign in to see this page.');
  });
});

describe('the operator’s default language', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { SSOGATE_DEFAULT_LANGUAGE: 'zh-CN' } });
  });
  after(async () => {
    await gw.close();
  });

  test('serves a browser that asks for no language of ours, and only that one', async () => {
    const french = await page(`${gw.url}/_sso/login`, { 'accept-language': 'fr-FR' });
    assert.match(french.body, /<html lang="zh-CN">/);
    const none = await page(`${gw.url}/_sso/signed-out`);
    assert.match(none.body, /您已退出登录。/);
    const english = await page(`${gw.url}/_sso/login`, { 'accept-language': 'en' });
    assert.match(english.body, /<html lang="en">/);
  });
});

describe('the language and organisation settings', () => {
  test('a default language must be one of ours; a name is trimmed and bounded', () => {
    assert.equal(loadConfig({}).defaultLanguage, 'en');
    assert.throws(
      () => loadConfig({ SSOGATE_DEFAULT_LANGUAGE: 'zh' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /SSOGATE_DEFAULT_LANGUAGE: .*expected en or zh-CN/.test(error.message),
    );
    assert.equal(loadConfig({ SSOGATE_ORGANIZATION_NAME: '  Acme  ' }).organization.name, 'Acme');
    assert.throws(
      () => loadConfig({ SSOGATE_ORGANIZATION_NAME: 'x'.repeat(101) }),
      /SSOGATE_ORGANIZATION_NAME/,
    );
  });

  test('a logo file that is missing, too big or no image stops the start, saying why', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ssogate-logo-'));
    try {
      await writeFile(join(folder, 'notes.png'), 'just text');
      await writeFile(join(folder, 'big.png'), Buffer.concat([PNG, Buffer.alloc(300 * 1024)]));
      await writeFile(join(folder, 'mark.svg'), '<?xml version="1.0"?>\n<svg viewBox="0 0 1 1"/>');
      const problem = (file: string) => {
        try {
          loadConfig({ SSOGATE_ORGANIZATION_LOGO_FILE: join(folder, file) });
          return 'none';
        } catch (error) {
          return (error as Error).message;
        }
      };
      assert.match(problem('missing.png'), /SSOGATE_ORGANIZATION_LOGO_FILE: cannot read .*ENOENT/);
      assert.match(problem('notes.png'), /is not a PNG, JPEG, WebP or SVG image/);
      assert.match(problem('big.png'), /a logo must be 1 byte to 256 KiB/);
      assert.equal(problem('mark.svg'), 'none');
      assert.equal(
        loadConfig({ SSOGATE_ORGANIZATION_LOGO_FILE: join(folder, 'mark.svg') }).organization.logo
          ?.type,
        'image/svg+xml',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
