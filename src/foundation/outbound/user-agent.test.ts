import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildTokenRequest, compileEntry } from '../../core/index.js';
import { exampleEntries } from '../../example-server/index.js';
import { sendOutbound } from './send-outbound.js';
import { outbound, suiteServers } from './test-support/http-fixture.js';
import { defaultUserAgent, ssogateVersion } from './user-agent.js';

describe('the headers the gateway sends by default', () => {
  const serve = suiteServers();

  test("the version is package.json's", async () => {
    const manifest = JSON.parse(await readFile(join(process.cwd(), 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(ssogateVersion, manifest.version);
    assert.equal(defaultUserAgent, `ssogate/${manifest.version}`);
  });

  test("a token call carries User-Agent: ssogate/<version> and Accept: application/json; an entry's own User-Agent wins", async () => {
    const server = await serve((_request, response) => response.end('{}'));
    const { getStyle } = exampleEntries(server.url);
    const plain = compileEntry(getStyle);
    const named = compileEntry({
      ...getStyle,
      tokenRequest: { headers: [{ name: 'User-Agent', value: 'corp-sso' }] },
    });
    for (const entry of [plain, named]) {
      if (entry.type !== 'oauth2') throw new Error('an oauth2 entry');
      await sendOutbound(
        buildTokenRequest(entry, {
          code: 'c',
          redirectUri: 'https://sso.example/cb',
          codeVerifier: undefined,
        }),
      );
    }
    const [first, second] = server.received;
    assert.equal(first?.headers['user-agent'], defaultUserAgent);
    assert.equal(first.headers.accept, 'application/json');
    assert.equal(second?.headers['user-agent'], 'corp-sso');
  });

  test('any other outbound call carries it too', async () => {
    const server = await serve((_request, response) => response.end('ok'));
    await sendOutbound(outbound({ url: `${server.url}/logout` }));
    assert.equal(server.received[0]?.headers['user-agent'], defaultUserAgent);
  });
});
