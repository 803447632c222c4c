import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import type { EchoUpstream } from '../features/reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../features/reverse-proxy/test-support/upstream-fixture.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import { signOut } from '../test-support/sign-out.js';
import { needsPostgresAndRedis, testBackend } from '../test-support/test-backend.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { instanceSettings, startGatewayProcess } from './test-support/gateway-process.js';

/**
 * One sign-in for many hosts over three gateway processes sharing
 * PostgreSQL and Redis: sso.localhost is served by the first, wiki.localhost
 * by the second, git.localhost by the third, so every handoff is issued on
 * one instance and finished on another, and a sign-out on one ends the
 * sign-in on the others.
 */
describe('many hosts over several instances', { skip: needsPostgresAndRedis }, () => {
  let example: ExampleServer;
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let instances: GatewayProcess[] = [];
  let cleanup: () => Promise<void>;
  let dir: string;
  let ports: number[] = [];
  const browsers: TestBrowser[] = [];
  const at = (host: 'sso' | 'wiki' | 'git', path: string) =>
    `http://${host}.localhost:${ports[['sso', 'wiki', 'git'].indexOf(host)] ?? 0}${path}`;

  before(async () => {
    example = await startExampleServer({});
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    const backend = await testBackend();
    cleanup = () => backend.cleanup();
    dir = await mkdtemp(join(tmpdir(), 'ssogate-hosts-'));
    const entriesFile = join(dir, 'entries.json');
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [{ ...exampleEntries(example.url).getStyle, isDefault: true }] }),
    );
    ports = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...backend.env,
      SSOGATE_PUBLIC_URL: at('sso', ''),
      SSOGATE_UPSTREAM: `${at('wiki', '').slice(7)}=${wiki.url},${at('git', '').slice(7)}=${git.url}`,
      ...instanceSettings(dir, entriesFile),
    };
    const started = await Promise.allSettled(ports.map((port) => startGatewayProcess(port, env)));
    instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  });

  after(async () => {
    for (const browser of browsers) await browser.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await example.close();
    await wiki.close();
    await git.close();
    await cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  test('handoffs finish on another instance; a sign-out on one ends every host on all', async () => {
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });
    browsers.push(browser);
    await signInAtExample(browser, example.url);
    const tokenCalls = () => example.requests.filter(({ path }) => path.endsWith('/token')).length;
    const onWiki = await browser.open(at('wiki', '/page?x=1'));
    assert.equal(onWiki.status, 200, onWiki.body);
    assert.equal(onWiki.url, at('wiki', '/page?x=1'));
    assert.ok(onWiki.hops.some(({ url }) => url.startsWith(at('sso', '/_sso/handoff?'))));
    const onGit = await browser.open(at('git', '/repo'));
    assert.equal(onGit.status, 200, onGit.body);
    assert.equal(tokenCalls(), 1, 'one sign-in for both hosts');
    // Remembered on the wiki's instance: the next checks come from its cache.
    for (let index = 0; index < 3; index += 1) {
      const again = await browser.open(at('wiki', '/page'), { accept: 'application/json' });
      assert.equal(again.status, 200);
    }

    await signOut(browser, at('git', ''));
    for (const host of ['wiki', 'git', 'sso'] as const) {
      const refused = await browser.open(at(host, host === 'sso' ? '/_sso/me' : '/page'), {
        accept: 'application/json',
      });
      assert.equal(refused.status, 401, `${host}: ${refused.body}`);
    }
  });
});
