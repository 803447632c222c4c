import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { waitUntil } from '../../test-support/wait-until.js';
import { compileEntry } from '../../core/index.js';
import { addressPolicy, parseAllowList } from '../../foundation/outbound/address-policy.js';
import { connectedClient, serviceBind, step } from './directory-connection.js';
import { ldapEntry, signIn } from './test-support/password-form.js';
import type { RunningSlapd } from './test-support/slapd.js';
import { directoryUsers, slapdSkip, startSlapd } from './test-support/slapd.js';

const [alice, bob] = directoryUsers as [
  (typeof directoryUsers)[number],
  (typeof directoryUsers)[number],
];

describe("an LDAP entry's pool of connections against slapd", { skip: slapdSkip }, () => {
  let slapd: RunningSlapd;
  let gw: TestGateway;
  let closed = false;
  const entries = () => [
    ldapEntry('corp', slapd.url, { isDefault: true }),
    ldapEntry('small', slapd.url, {
      // The same people as the entry corp signs in.
      provisioning: { adoptExistingUsers: true },
      ldap: { poolSize: 1, poolWaitMs: 300 },
    }),
  ];

  before(async () => {
    slapd = await startSlapd();
    gw = await startTestGateway({ entries });
  });
  after(async () => {
    if (!closed) await gw.close();
    await slapd.stop();
  });

  const pools = () => gw.gateway.memory.directoryPools;
  const opened = (entryId: string) => pools().get(entryId)?.stats().opened ?? 0;
  const slapdHolds = async (count: number) => {
    let seen = -1;
    await waitUntil(
      async () => {
        seen = await slapd.openConnections();
        return seen === count;
      },
      { message: () => `slapd to hold ${String(count)} connections (it holds ${String(seen)})` },
    );
  };

  test('sign-ins reuse one connection, which a user bind, good or bad, does not leave bound as the user', async () => {
    // slapd lets a user read only their own entry (test-support/slapd.ts): a
    // connection still bound as bob would not find alice, and she would fail.
    const answers = [
      await signIn(gw, gw.browser(), 'corp', bob.uid, bob.password),
      await signIn(gw, gw.browser(), 'corp', alice.uid, alice.password),
      await signIn(gw, gw.browser(), 'corp', bob.uid, 'not his password'),
      await signIn(gw, gw.browser(), 'corp', alice.uid, alice.password),
      await signIn(gw, gw.browser(), 'corp', 'nobody', 'any password'),
      await signIn(gw, gw.browser(), 'corp', bob.uid, bob.password),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [303, 303, 401, 303, 401, 303],
    );
    assert.equal(opened('corp'), 1);
    await slapdHolds(1);
  });

  test('a directory killed and started again is recovered from: the dead connection is replaced', async () => {
    const before = opened('corp');
    // A connection of its own, bound, to see that it is never opened again in place.
    const entry = compileEntry(ldapEntry('own', slapd.url));
    assert.ok(entry.type === 'ldap');
    const deps = {
      policy: addressPolicy(parseAllowList('127.0.0.1', 'SSOGATE_OUTBOUND_ALLOW', [])),
      timeoutMs: 2000,
      entryId: 'own',
    };
    const own = connectedClient(deps, entry.ldap);
    try {
      await serviceBind(deps, own, entry.ldap);
      await slapd.restart();
      await waitUntil(() => !own.isConnected, { message: 'the client to see its connection end' });
      // ldapts alone would reconnect, unbound, and search anonymously (slapd answering with no
      // entry or an error code): refused without an answer instead.
      await assert.rejects(
        step(deps, 'the search', () =>
          own.search(entry.ldap.baseDn, { scope: 'sub', filter: '(uid=alice)' }),
        ),
        { code: 'ldap_unavailable' },
      );
    } finally {
      await own.unbind().catch(() => undefined);
    }
    const answer = await signIn(gw, gw.browser(), 'corp', alice.uid, alice.password);
    assert.equal(answer.status, 303, answer.body);
    assert.equal(opened('corp'), before + 1);
    assert.equal((await signIn(gw, gw.browser(), 'corp', bob.uid, bob.password)).status, 303);
    assert.equal(opened('corp'), before + 1);
    await slapdHolds(1);
  });

  test('a sign-in finding every connection lent is refused after the wait: ldap_unavailable, the limit named', async () => {
    assert.equal((await signIn(gw, gw.browser(), 'small', bob.uid, bob.password)).status, 303);
    const pool = pools().get('small');
    assert.ok(pool);
    const held = await pool.acquire();
    try {
      const refused = await signIn(gw, gw.browser(), 'small', alice.uid, alice.password);
      assert.equal(refused.status, 503, refused.body);
      assert.match(refused.body, /ldap_unavailable/);
      assert.ok(
        gw.logLines.some((line) => line.includes('ldap.poolSize')),
        'the refusal names ldap.poolSize in the log',
      );
      assert.equal(pool.stats().waiting, 0);
    } finally {
      held.release(true);
    }
    assert.equal((await signIn(gw, gw.browser(), 'small', alice.uid, alice.password)).status, 303);
    assert.equal(opened('small'), 1);
  });

  test("an entry removed or changed closes its connections, and so does the gateway's stop", async () => {
    await slapdHolds(2);
    const token = await storedApiToken(gw, 'pool-test');
    const api = (method: 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      gw.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload === undefined ? {} : { payload }),
      });
    // The entries are read again at the next sign-in's start.
    const readEntries = async () => {
      assert.equal((await gw.browser().open(`${gw.url}/_sso/login/corp`)).status, 200);
    };
    assert.equal((await api('DELETE', '/_sso/api/entries/small')).statusCode, 204);
    await readEntries();
    assert.equal(pools().get('small'), undefined);
    await slapdHolds(1);
    const changed = ldapEntry('corp', slapd.url, { isDefault: true, ldap: { poolSize: 2 } });
    const put = await api('PUT', '/_sso/api/entries/corp', changed);
    assert.equal(put.statusCode, 200, put.body);
    await readEntries();
    await slapdHolds(0);
    assert.equal((await signIn(gw, gw.browser(), 'corp', bob.uid, bob.password)).status, 303);
    assert.equal(opened('corp'), 1);
    await slapdHolds(1);
    closed = true;
    await gw.close();
    await slapdHolds(0);
  });
});
