import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import { compileEntry } from '../../core/index.js';
import { addressPolicy, parseAllowList } from '../../foundation/outbound/address-policy.js';
import { entryFromPreset, findPreset } from '../../foundation/presets/presets.js';
import { signInWithDirectory } from './directory-sign-in.js';
import type { FormAnswer } from './test-support/password-form.js';
import { ldapEntry, post, signIn } from './test-support/password-form.js';
import type { RunningSlapd } from './test-support/slapd.js';
import {
  directoryUsers,
  groupSearch,
  serviceDn,
  servicePassword,
  slapdSkip,
  startSlapd,
  suffix,
} from './test-support/slapd.js';

const [alice, bob] = directoryUsers as [
  (typeof directoryUsers)[number],
  (typeof directoryUsers)[number],
];

/** The OpenLDAP preset (src/foundation/presets/openldap.json) filled for the test directory. */
function openldapPresetEntry(url: string) {
  const preset = findPreset('openldap');
  assert.ok(preset);
  const made = entryFromPreset(preset, {
    id: 'openldap',
    appid: 'gateway',
    appsecret: servicePassword,
    parameters: {
      url,
      bindDn: serviceDn,
      baseDn: `ou=people,${suffix}`,
      groupBaseDn: `ou=groups,${suffix}`,
    },
  });
  assert.ok(made.ok, made.ok ? '' : JSON.stringify(made.problems));
  return { ...made.entry.input, provisioning: { adoptExistingUsers: true } };
}

/** An entry's `ldap` settings that bind as the user's own DN, with no service account to search first. */
const bindAsTheUser = {
  bindDn: undefined,
  userFilter: undefined,
  userDnTemplate: `uid={username},ou=people,${suffix}`,
};

/** The page with what differs per browser and sign-in (its tokens) taken out. */
const withoutTokens = (body: string) => body.replace(/name="(state|csrf)" value="[^"]*"/g, '');

describe('an LDAP entry against slapd', { skip: slapdSkip }, () => {
  let slapd: RunningSlapd;
  let gw: TestGateway;
  // A server that takes connections and never answers: a directory that hangs.
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  let closedPort: number;

  before(async () => {
    slapd = await startSlapd();
    silentPort = await freePort();
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    closedPort = await freePort();
    gw = await startTestGateway({
      entries: () => [
        ldapEntry('corp', slapd.url, { isDefault: true }),
        ldapEntry('groups', slapd.url, {
          ldap: groupSearch,
        }),
        ldapEntry('nested', slapd.url, {
          // The same people as the entry corp signs in.
          provisioning: { adoptExistingUsers: true },
          ldap: {
            ...groupSearch,
            nestedGroups: true,
          },
        }),
        ldapEntry('direct', slapd.url, {
          // The same people as the entry corp signs in.
          provisioning: { adoptExistingUsers: true },
          appsecret: undefined,
          ldap: bindAsTheUser,
        }),
        ldapEntry('direct-groups', slapd.url, {
          // The same people as the entry corp signs in.
          provisioning: { adoptExistingUsers: true },
          appsecret: undefined,
          ldap: {
            ...bindAsTheUser,
            ...groupSearch,
            nestedGroups: true,
          },
        }),
        openldapPresetEntry(slapd.url),
        ldapEntry('down', `ldap://127.0.0.1:${closedPort}`),
        ldapEntry('hangs', `ldap://127.0.0.1:${silentPort}`, { timeoutMs: 500 }),
      ],
    });
  });
  after(async () => {
    await gw.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
    await slapd.stop();
  });

  test('the password form signs the user in: session, attributes, groups and the administrator flag', async () => {
    const browser = gw.browser();
    const answer = await signIn(gw, browser, 'corp', alice.uid, alice.password);
    assert.equal(answer.status, 303, answer.body);
    assert.equal(answer.location, '/after');
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 200, me.body);
    const body = JSON.parse(me.body) as Record<string, unknown>;
    assert.equal(body.userId, 'alice');
    assert.equal(body.userName, alice.name);
    assert.equal(body.email, alice.email);
    assert.equal(body.isAdmin, true);
    assert.equal(body.entryId, 'corp');
    const stored = await gw.storage.users.findByUserId('alice');
    assert.deepEqual(stored?.groups, ['engineers', 'gateway-admins']);
  });

  test('a page that needs a session sends the browser to the default entry: its form', async () => {
    const browser = gw.browser();
    const form = await browser.open(`${gw.url}/`);
    assert.equal(form.status, 200, form.body);
    assert.equal(new URL(form.url).pathname, '/_sso/ldap/corp');
    assert.match(form.body, /<h1>Directory corp<\/h1>/);
    const answer = await post(gw, browser, 'corp', form.body, alice.uid, alice.password);
    assert.equal(answer.status, 303, answer.body);
    assert.equal(answer.location, '/');
  });

  test('groups found by a group search, without memberOf', async () => {
    const browser = gw.browser();
    const answer = await signIn(gw, browser, 'groups', bob.uid, bob.password);
    assert.equal(answer.status, 303, answer.body);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { isAdmin: boolean }).isAdmin, false);
    const stored = await gw.storage.users.findByUserId('bob');
    assert.deepEqual(stored?.groups, ['engineers']);
  });

  test('nested groups are followed by searching again, through a cycle, when asked', async () => {
    const answer = await signIn(gw, gw.browser(), 'nested', bob.uid, bob.password);
    assert.equal(answer.status, 303, answer.body);
    const stored = await gw.storage.users.findByUserId('bob');
    // engineers directly; platform holds engineers; staff holds platform, which holds staff back.
    assert.deepEqual([...(stored?.groups ?? [])].sort(), ['engineers', 'platform', 'staff']);
    // The same directory without nestedGroups: the direct group only.
    assert.equal((await signIn(gw, gw.browser(), 'groups', bob.uid, bob.password)).status, 303);
    assert.deepEqual((await gw.storage.users.findByUserId('bob'))?.groups, ['engineers']);
  });

  test('the OpenLDAP preset signs in against slapd, groups by its group search', async () => {
    const answer = await signIn(gw, gw.browser(), 'openldap', bob.uid, bob.password);
    assert.equal(answer.status, 303, answer.body);
    const stored = await gw.storage.users.findByUserId('bob');
    assert.ok(stored);
    assert.equal(stored.userName, bob.name);
    assert.deepEqual(stored.groups, ['engineers']);
  });

  test('a direct bind by DN template signs in without a service account', async () => {
    const browser = gw.browser();
    const answer = await signIn(gw, browser, 'direct', alice.uid, alice.password);
    assert.equal(answer.status, 303, answer.body);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    const body = JSON.parse(me.body) as Record<string, unknown>;
    assert.equal(body.userId, 'alice');
    assert.equal(body.userName, alice.name);
    assert.equal(body.email, alice.email);
    assert.equal(body.isAdmin, true);
    assert.deepEqual((await gw.storage.users.findByUserId('alice'))?.groups, [
      'engineers',
      'gateway-admins',
    ]);
    // Groups searched as the user themselves, nested ones included.
    assert.equal(
      (await signIn(gw, gw.browser(), 'direct-groups', bob.uid, bob.password)).status,
      303,
    );
    assert.deepEqual([...((await gw.storage.users.findByUserId('bob'))?.groups ?? [])].sort(), [
      'engineers',
      'platform',
      'staff',
    ]);
  });

  test('a direct bind: a wrong password, an unknown user and a DN injection get the same answer', async () => {
    const answers = [
      await signIn(gw, gw.browser(), 'direct', bob.uid, 'not the password'),
      await signIn(gw, gw.browser(), 'direct', 'nobody', 'not the password'),
      await signIn(gw, gw.browser(), 'direct', `bob,ou=people,${suffix}`, bob.password),
      await signIn(gw, gw.browser(), 'direct', 'bob+cn=x', bob.password),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 401, answer.body);
      assert.match(answer.body, /The username or password is not right/);
    }
    const [wrong, unknown] = answers as [FormAnswer, FormAnswer];
    assert.equal(
      withoutTokens(wrong.body).replace('value="bob"', ''),
      withoutTokens(unknown.body).replace('value="nobody"', ''),
    );
  });

  test('a wrong password, an unknown user and a filter injection get the same answer', async () => {
    const answers = [
      await signIn(gw, gw.browser(), 'corp', bob.uid, 'not the password'),
      await signIn(gw, gw.browser(), 'corp', 'nobody', 'not the password'),
      await signIn(gw, gw.browser(), 'corp', '*)(uid=*', 'not the password'),
      await signIn(gw, gw.browser(), 'corp', '*', bob.password),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 401, answer.body);
      assert.match(answer.body, /The username or password is not right/);
      // The form again, under a new state, to try once more.
      assert.match(answer.body, /name="state" value="[^"]+"/);
      assert.equal(answer.location, undefined);
    }
    const [wrong, unknown] = answers as [FormAnswer, FormAnswer];
    assert.equal(
      withoutTokens(wrong.body).replace('value="bob"', ''),
      withoutTokens(unknown.body).replace('value="nobody"', ''),
    );
    const failures = (await gw.storage.audit.list({ limit: 20 })).filter(
      (event) => event.code === 'ldap_sign_in_failed',
    );
    assert.ok(failures.length >= 4);
  });

  test('no typed password nor the service password is ever logged or audited', async () => {
    const wrongPassword = 'a wrong password 7f3c';
    assert.equal((await signIn(gw, gw.browser(), 'corp', bob.uid, wrongPassword)).status, 401);
    assert.equal((await signIn(gw, gw.browser(), 'groups', bob.uid, bob.password)).status, 303);
    assert.equal((await signIn(gw, gw.browser(), 'direct', bob.uid, wrongPassword)).status, 401);
    const events = JSON.stringify(await gw.storage.audit.list({ limit: 200 }));
    assert.ok(gw.logLines.length > 0);
    for (const secret of [wrongPassword, bob.password, servicePassword]) {
      assert.equal(
        gw.logLines.some((line) => line.includes(secret)),
        false,
        `${secret} in the logs`,
      );
      assert.equal(events.includes(secret), false, `${secret} in the audit events`);
    }
  });

  test('an empty password is refused before any connection (RFC 4513 §5.1.2)', async () => {
    const answer = await signIn(gw, gw.browser(), 'corp', alice.uid, '');
    assert.equal(answer.status, 401, answer.body);
    // Against a port where nothing listens: refused as a wrong password, not as a directory down.
    const entry = compileEntry(ldapEntry('x', `ldap://127.0.0.1:${closedPort}`));
    assert.ok('ldap' in entry);
    await assert.rejects(
      signInWithDirectory(
        {
          policy: addressPolicy(parseAllowList('127.0.0.1', 'SSOGATE_OUTBOUND_ALLOW', [])),
          timeoutMs: 1000,
          entryId: 'x',
        },
        entry.ldap,
        alice.uid,
        '',
      ),
      { code: 'ldap_sign_in_failed' },
    );
  });

  test('a directory down or silent is a coded 503, within the time-outs', async () => {
    for (const id of ['down', 'hangs']) {
      const began = Date.now();
      const answer = await signIn(gw, gw.browser(), id, alice.uid, alice.password);
      assert.equal(answer.status, 503, answer.body);
      assert.match(answer.body, /ldap_unavailable/);
      assert.ok(Date.now() - began < 5000, `${id} answered after ${Date.now() - began} ms`);
    }
  });

  test('a GET callback with a username and password signs no one in', async () => {
    const browser = gw.browser();
    const form = await browser.open(`${gw.url}/_sso/login/corp?return_to=/after`);
    const state = /name="state" value="([^"]*)"/.exec(form.body)?.[1] ?? '';
    const query = new URLSearchParams({ state, username: alice.uid, password: alice.password });
    const answer = await browser.exchange(
      'GET',
      `${gw.url}/_sso/callback/corp?${query.toString()}`,
    );
    assert.equal(answer.status, 401);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 401);
  });

  test('failures are limited per address and username, as the local sign-in', async () => {
    const browser = gw.browser();
    for (let index = 0; index < 5; index += 1) {
      assert.equal((await signIn(gw, browser, 'corp', 'carol', `guess ${index}`)).status, 401);
    }
    const held = await signIn(gw, browser, 'corp', 'carol', 'guess 6');
    assert.equal(held.status, 429, held.body);
    assert.match(held.body, /rate_limited/);
    // Another username from the same address is not held.
    assert.equal((await signIn(gw, browser, 'corp', alice.uid, alice.password)).status, 303);
  });

  test('the admin API refuses a bad DN or filter with its code and field', async () => {
    const token = await storedApiToken(gw, 'ldap-test');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ baseDn: 'people' }, 'ldap_dn_invalid', 'ldap.baseDn'],
      [{ bindDn: 'cn=gateway,,dc=example' }, 'ldap_dn_invalid', 'ldap.bindDn'],
      [{ userFilter: '(uid={username}' }, 'ldap_filter_invalid', 'ldap.userFilter'],
      [{ userFilter: '(uid=alice)' }, 'ldap_filter_invalid', 'ldap.userFilter'],
      [{ groupFilter: '(member={username})' }, 'ldap_filter_invalid', 'ldap.groupFilter'],
      [{ url: 'http://127.0.0.1:389' }, 'field_invalid', 'ldap.url'],
    ];
    for (const [ldap, code, field] of cases) {
      const response = await gw.app.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: { authorization: `Bearer ${token}` },
        payload: ldapEntry('bad', slapd.url, { ldap }),
      });
      assert.equal(response.statusCode, 400, response.body);
      const { error } = JSON.parse(response.body) as {
        error: { code: string; problems: { code: string; field: string }[] };
      };
      assert.equal(error.code, 'entry_invalid');
      assert.deepEqual(
        error.problems.map((problem) => [problem.code, problem.field]),
        [[code, field]],
        JSON.stringify(ldap),
      );
    }
    const created = await gw.app.inject({
      method: 'POST',
      url: '/_sso/api/entries',
      headers: { authorization: `Bearer ${token}` },
      payload: ldapEntry('good', slapd.url),
    });
    assert.equal(created.statusCode, 201, created.body);
    const entry = (JSON.parse(created.body) as { entry: Record<string, unknown> }).entry;
    assert.equal(entry.type, 'ldap');
    assert.equal(entry.appsecretSet, true);
    assert.equal(JSON.stringify(entry).includes(servicePassword), false);
    const trial = await gw.app.inject({
      method: 'POST',
      url: '/_sso/api/entries/corp/test-sign-in',
      headers: { authorization: `Bearer ${token}` },
    });
    // Tried through its password form (src/features/trial-sign-in/ldap-trial.test.ts).
    assert.equal(trial.statusCode, 201, trial.body);
  });
});

describe("an LDAP entry's form with several hosts", { skip: slapdSkip }, () => {
  let slapd: RunningSlapd;
  let gw: TestGateway;
  let port = 0;
  before(async () => {
    slapd = await startSlapd();
    gw = await startTestGateway({
      entries: () => [ldapEntry('corp', slapd.url, { isDefault: true })],
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${listening}`,
          SSOGATE_FORWARD_AUTH_HOSTS: `*.apps.localhost:${listening}`,
        };
      },
    });
  });
  after(async () => {
    await gw.close();
    await slapd.stop();
  });

  test("the form's CSP lets its post's redirects reach the application hosts", async () => {
    const form = await gw.app.inject({
      method: 'GET',
      url: '/_sso/ldap/corp?state=x',
      headers: { host: `sso.localhost:${port}`, accept: 'text/html' },
    });
    assert.equal(form.statusCode, 200, form.body);
    assert.match(
      String(form.headers['content-security-policy']),
      new RegExp(`form-action 'self' http://\\*\\.apps\\.localhost:${port};`),
    );
  });

  test('answers on the auth host only: a GET is sent there, a post is 404', async () => {
    const host = `team.apps.localhost:${port}`;
    const shown = await gw.app.inject({
      method: 'GET',
      url: '/_sso/ldap/corp?state=x',
      headers: { host, accept: 'text/html' },
    });
    assert.equal(shown.statusCode, 302, shown.body);
    assert.equal(shown.headers.location, `http://sso.localhost:${port}/_sso/ldap/corp?state=x`);
    const posted = await gw.app.inject({
      method: 'POST',
      url: '/_sso/ldap/corp',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        state: 'x',
        username: alice.uid,
        password: alice.password,
      }).toString(),
    });
    assert.equal(posted.statusCode, 404, posted.body);
  });
});
