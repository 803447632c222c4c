import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { CompiledOAuth2Entry } from '../core/index.js';
import {
  buildAuthorizationRequest,
  buildTokenRequest,
  buildUserInfoRequest,
  processTokenResponse,
  readUserInfo,
  validateEntry,
} from '../core/index.js';
import { sendOutbound } from '../foundation/outbound/send-outbound.js';
import { exampleEntries } from './presets.js';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import { TestBrowser, continueField } from './test-support/browser-fixture.js';

const publicUrl = 'http://gateway.test';

function compile(entry: Record<string, unknown>): CompiledOAuth2Entry {
  const result = validateEntry(entry);
  assert.ok(result.ok, result.ok ? '' : result.problems.map((p) => p.message).join('; '));
  assert.ok(result.entry.type === 'oauth2');
  return result.entry;
}

describe('example entries', () => {
  let server: ExampleServer;
  before(async () => {
    server = await startExampleServer();
  });
  after(async () => {
    await server.close();
  });

  test('each preset passes validateEntry', () => {
    const { getStyle, jsonStyle, standard, github } = exampleEntries('http://127.0.0.1:9090/');
    for (const entry of [getStyle, jsonStyle, standard, github]) compile(entry);
    const custom = exampleEntries('https://sso.example.test', { appid: 'a', secret: 's' });
    assert.equal(custom.jsonStyle.appsecret, 's');
    assert.match(String(custom.getStyle.authorizeUrl), /^https:\/\/sso\.example\.test\/get\//);
  });

  // The whole sign-in as the gateway makes it: the core shapes each call, the
  // outbound client sends it, the example server answers.
  for (const style of ['getStyle', 'jsonStyle', 'standard', 'github'] as const) {
    test(`${style}: a whole sign-in through the core and the outbound client`, async () => {
      const entry = compile(exampleEntries(server.url)[style]);
      const authorization = buildAuthorizationRequest(entry, { publicUrl, random: randomBytes });
      const browser = new TestBrowser();
      const form = await browser.exchange('GET', authorization.url);
      const login = await browser.exchange('POST', `${server.url}/login`, {
        username: 'alice',
        password: 'alice-password',
        continue: continueField(await form.text()),
      });
      const back = await browser.exchange(
        'GET',
        `${server.url}${login.headers.get('location') ?? ''}`,
      );
      const callback = new URL(back.headers.get('location') ?? '');
      assert.equal(callback.searchParams.get('state'), authorization.state);
      const code = callback.searchParams.get('code') ?? '';

      const secrets = ['demo-secret', code];
      const tokenRequest = buildTokenRequest(entry, {
        code,
        redirectUri: authorization.redirectUri,
        codeVerifier: authorization.codeVerifier,
      });
      const token = processTokenResponse(entry, await sendOutbound(tokenRequest), { secrets });
      const userInfo = await sendOutbound(
        buildUserInfoRequest(entry, {
          accessToken: token.accessToken,
          code: undefined,
          appToken: undefined,
          named: token.values,
        }),
      );
      const { user } = readUserInfo(entry, userInfo, { secrets, tokenValues: token.values });
      // The GitHub style's user id is its numeric account id.
      assert.equal(user.userId, style === 'github' ? '1001' : 'alice');
      assert.equal(user.email, 'alice@example.test');
    });
  }

  test("docs/entries.md's by-hand entry for the demo's example server is the standard one, and valid", async () => {
    const { readFile } = await import('node:fs/promises');
    const docs = await readFile(new URL('../../../docs/entries.md', import.meta.url), 'utf8');
    const section = docs.split("### The demo's example server, by hand")[1] ?? '';
    const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    assert.ok(block !== undefined, 'the section has a JSON block');
    const written = JSON.parse(block) as Record<string, unknown>;
    compile(written);
    const { standard } = exampleEntries('http://127.0.0.1:9090');
    for (const [field, value] of Object.entries(standard)) {
      if (field === 'id' || field === 'name' || field === 'appsecret') continue;
      assert.deepEqual(written[field], value, field);
    }
    assert.equal(written.appsecret, standard.appsecret);
  });
});
