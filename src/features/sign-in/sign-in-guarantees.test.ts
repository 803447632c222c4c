import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { signOut } from '../../test-support/sign-out.js';

const canarySecret = 'CANARY_SECRET_5d1e0b7c';

/**
 * Guarantees that hold across whole runs: one row per new user whatever the
 * races, and no secret, code or token in the log, on a page or in API output.
 */
describe('sign-in guarantees', () => {
  let gw: TestGateway;
  const pages: string[] = [];
  before(async () => {
    gw = await startTestGateway({
      client: { appid: 'canary-app', secret: canarySecret },
      entries: ({ getStyle, jsonStyle }) => [{ ...getStyle, isDefault: true }, jsonStyle],
      usernames: ['alice', 'bob'],
    });
  });
  after(async () => gw.close());

  test('twenty simultaneous first sign-ins of one new user leave exactly one row', async () => {
    const browsers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const browser = gw.browser();
        await signInAtExample(browser, gw.example.url, 'alice');
        return browser;
      }),
    );
    const results = await Promise.all(browsers.map((browser) => browser.open(`${gw.url}/race`)));
    for (const result of results) {
      assert.equal(result.status, 200, result.body);
      pages.push(result.body);
    }
    const { users, total } = await gw.storage.users.list({ search: 'alice', limit: 50, offset: 0 });
    assert.equal(total, 1);
    assert.equal(users[0]?.userId, 'alice');
  });

  test('a whole run, failures included, leaks no secret, code or token', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'bob');
    pages.push((await browser.open(`${gw.url}/_sso/login/example-json?return_to=/a`)).body);
    gw.example.failNext('token', { status: 500, body: `echo ${canarySecret}` });
    pages.push((await browser.open(`${gw.url}/_sso/login/example-get?return_to=/b`)).body);
    gw.example.failNext('userinfo', { body: 'not json at all' });
    pages.push((await browser.open(`${gw.url}/_sso/login/example-get?return_to=/c`)).body);
    pages.push((await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).body);
    pages.push((await browser.open(`${gw.url}/_sso/logout`)).body);
    pages.push((await signOut(browser, gw.url)).body);

    // Every code and token the example server saw the gateway send.
    const credentials = new Set<string>([canarySecret]);
    for (const request of gw.example.requests) {
      const body = (request.body ?? {}) as Record<string, unknown>;
      for (const value of [
        request.query.code,
        request.query.access_token,
        body.code,
        body.access_token,
        body.secret,
      ]) {
        if (typeof value === 'string' && value.length >= 8) credentials.add(value);
      }
      const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
      if (bearer !== undefined) credentials.add(bearer);
      if (request.query.state !== undefined && request.path.endsWith('/authorize'))
        credentials.add(request.query.state);
    }
    assert.ok(
      credentials.size > 5,
      `expected codes and tokens to check, found ${credentials.size}`,
    );
    const log = gw.logLines.join('');
    assert.ok(log.includes('sign_in'), 'the log holds the sign-in lines');
    for (const credential of credentials) {
      assert.equal(log.includes(credential), false, `the log contains ${credential.slice(0, 6)}…`);
      for (const page of pages)
        assert.equal(page.includes(credential), false, 'a page contains a credential');
    }
    const audit = JSON.stringify(await gw.storage.audit.list({ limit: 500 }));
    for (const credential of credentials) assert.equal(audit.includes(credential), false);
  });
});
