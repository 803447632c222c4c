import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * Groups and the administrator flag from the server's answer
 * (docs/entries.md#groups-and-administrators), stored with the user and
 * judged by an access rule's `groups` condition, on the suite's backend.
 */
describe('group mapping', () => {
  let gw: TestGateway;
  // The example server reads these arrays at each user-info call.
  const aliceGroups = ['sso-admins', 'sre'];
  const bobGroups = ['dev'];
  before(async () => {
    gw = await startTestGateway({
      entries: ({ standard }) => [
        {
          ...standard,
          groupMapping: {
            expression: "JSON_GET($response, 'groups')",
            adminGroups: ['sso-admins'],
          },
        },
      ],
      usernames: ['alice', 'bob'],
      groups: { alice: aliceGroups, bob: bobGroups },
      env: { SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/ops', groups: ['sre'] }]) },
    });
  });
  after(async () => gw.close());

  async function signIn(username: string): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const page = await browser.open(`${gw.url}/_sso/login/example-standard?return_to=/x`);
    assert.equal(page.url, `${gw.url}/x`, page.body);
    return browser;
  }

  const opsCheck = (browser: TestBrowser) =>
    fetch(`${gw.url}/_sso/auth`, {
      headers: {
        cookie: `ssogate_session=${browser.cookies(gw.url).get('ssogate_session') ?? ''}`,
        'x-forwarded-uri': '/ops/deploy',
      },
    });

  test('a member of an admin group is an administrator; the groups are stored and ruled on', async () => {
    const alice = await signIn('alice');
    const me = await alice.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { isAdmin: boolean }).isAdmin, true);
    const stored = await gw.storage.users.findByUserId('alice');
    assert.deepEqual(stored?.groups, ['sso-admins', 'sre']);
    assert.equal((await opsCheck(alice)).status, 204);

    const bob = await signIn('bob');
    const bobMe = await bob.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(bobMe.body) as { isAdmin: boolean }).isAdmin, false);
    assert.equal((await opsCheck(bob)).status, 403);
  });

  test('groups taken away at the server are taken away at the next sign-in', async () => {
    aliceGroups.splice(0, aliceGroups.length, 'dev');
    const alice = await signIn('alice');
    const stored = await gw.storage.users.findByUserId('alice');
    assert.deepEqual(stored?.groups, ['dev']);
    assert.equal(stored.isAdmin, false);
    assert.equal((await opsCheck(alice)).status, 403);
  });
});
