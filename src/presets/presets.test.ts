import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../test-support/gateway-fixture.js';
import { entryFromPreset, findPreset, presets } from './presets.js';

// Compiled into build/src/presets/, so the repository is three levels up.
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const presetFolder = resolve(repositoryRoot, 'src/presets');

const sampleParameters: Record<string, Record<string, string>> = { wecom: { agentid: '1000002' } };

function presetEntry(name: string, parameters: Record<string, string> = {}) {
  const preset = findPreset(name);
  assert.ok(preset, name);
  const result = entryFromPreset(preset, {
    id: name,
    appid: 'demo-app',
    appsecret: 'demo-secret',
    parameters: { ...sampleParameters[name], ...parameters },
  });
  assert.ok(result.ok, result.ok ? '' : result.problems.map((p) => p.message).join('; '));
  return result.entry;
}

describe('presets', () => {
  test('every file of src/presets/ is a preset, and each makes a valid entry', async () => {
    const files = (await readdir(presetFolder)).filter((file) => file.endsWith('.json'));
    assert.deepEqual(
      files.map((file) => file.replace(/\.json$/, '')).sort(),
      presets.map((preset) => preset.preset).sort(),
    );
    for (const preset of presets) presetEntry(preset.preset);
  });

  test('a parameter without value or default is a coded problem on its name', () => {
    const preset = findPreset('wecom');
    assert.ok(preset);
    const result = entryFromPreset(preset, { id: 'wecom', appid: 'corp' });
    assert.ok(!result.ok);
    assert.deepEqual(
      result.problems.map(({ code, field }) => [code, field]),
      [['field_invalid', 'parameters.agentid']],
    );
  });

  test('the build ships every preset file (the program imports each)', async () => {
    const tsc = resolve(repositoryRoot, 'node_modules/typescript/bin/tsc');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'],
      { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    const listed = new Set(stdout.split('\n').map((line) => line.trim()));
    for (const preset of presets) {
      assert.ok(listed.has(resolve(presetFolder, `${preset.preset}.json`)), preset.preset);
    }
  });
});

describe('presets sign in against emulations of their providers', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: (_examples, exampleUrl) => [
        presetEntry('wecom', {
          loginBase: `${exampleUrl}/wecom`,
          apiBase: `${exampleUrl}/wecom`,
        }).input,
        presetEntry('dingtalk', {
          loginBase: `${exampleUrl}/dingtalk`,
          apiBase: `${exampleUrl}/dingtalk`,
        }).input,
        presetEntry('github', {
          webBase: `${exampleUrl}/github`,
          apiBase: `${exampleUrl}/github/api`,
        }).input,
      ],
      usernames: ['alice'],
    });
  });
  after(async () => gw.close());

  for (const name of ['wecom', 'dingtalk', 'github']) {
    test(`${name}: signs in`, async () => {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      const page = await browser.open(`${gw.url}/_sso/login/${name}?return_to=/p`);
      assert.equal(page.url, `${gw.url}/p`, page.body);
      const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
      assert.equal((JSON.parse(me.body) as { userName: string }).userName, 'Alice Example');
    });
  }

  test('wecom: its errcode envelope is a coded error and no session', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.failNext('userinfo', {
      status: 200,
      body: '{"errcode":40029,"errmsg":"invalid code"}',
    });
    const page = await browser.open(`${gw.url}/_sso/login/wecom?return_to=/p`);
    assert.equal(page.status, 502);
    assert.match(page.body, /userinfo_request_failed/);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 401);
  });

  test('dingtalk: its error envelope is a coded error and no session', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.failNext('token', {
      status: 400,
      body: '{"code":"invalidParameter.authCode.notFound","message":"authCode is invalid"}',
    });
    const page = await browser.open(`${gw.url}/_sso/login/dingtalk?return_to=/p`);
    assert.equal(page.status, 502);
    assert.match(page.body, /token_request_failed/);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 401);
  });
});
