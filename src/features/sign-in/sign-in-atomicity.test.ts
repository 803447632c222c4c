import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { testBackendName } from '../../test-support/test-backend.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { UpstreamSessionStore } from '../../foundation/storage/types.js';
import type { GatewayStorage } from '../../app/open-storage.js';
import type { OidcTestSetup } from '../../foundation/oidc/test-support/oidc-gateway.js';
import { startOidcSetup } from '../../foundation/oidc/test-support/oidc-gateway.js';
import { signInAtProvider } from '../../foundation/oidc/test-support/openid-provider.js';

/**
 * A callback's writes (the user, its sign-in event, the session) are one
 * unit: the database refuses the sign-in event of one user, as a full disk
 * or a dropped connection would at that step, and nothing of that sign-in
 * may remain. The refusal is a trigger in the real database, on either backend.
 */
describe('a sign-in that fails mid-way', () => {
  let gw: TestGateway;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-atomic-'));
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      usernames: ['carol'],
      // SQLite in a file, so that a second connection can add the trigger.
      env: testBackendName().startsWith('sqlite')
        ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}` }
        : {},
    });
  });
  after(async () => {
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function database(statements: readonly string[]): Promise<void> {
    const { database: where } = gw.gateway.config;
    if (where.kind === 'sqlite') {
      const raw = new BetterSqlite3(where.filename);
      try {
        for (const statement of statements) raw.exec(statement);
      } finally {
        raw.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: where.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  }

  const refuseCarolsEvent = (): Promise<void> =>
    gw.gateway.config.database.kind === 'sqlite'
      ? database([
          `create trigger refuse_carol before insert on audit_events
             when new.user_id = 'carol' and new.outcome = 'success'
             begin select raise(abort, 'refused'); end`,
        ])
      : database([
          `create or replace function refuse_carol() returns trigger language plpgsql as $$
             begin
               if new.user_id = 'carol' and new.outcome = 'success' then raise exception 'refused'; end if;
               return new;
             end $$`,
          `create trigger refuse_carol before insert on audit_events
             for each row execute function refuse_carol()`,
        ]);
  const allowCarolsEvent = (): Promise<void> =>
    database([
      'drop trigger refuse_carol' +
        (gw.gateway.config.database.kind === 'sqlite' ? '' : ' on audit_events'),
    ]);

  async function successEvents(): Promise<number> {
    const events = await gw.storage.audit.list({ kind: 'sign_in', outcome: 'success', limit: 50 });
    return events.length;
  }

  test('a first sign-in leaves no user, no event and no session', async () => {
    await refuseCarolsEvent();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'carol');
    const result = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/first`);
    assert.notEqual(result.url, `${gw.url}/first`);
    assert.ok(result.status >= 500, `status ${result.status}`);
    assert.equal(await gw.storage.users.findByUserId('carol'), undefined);
    assert.equal(await successEvents(), 0);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 401);
  });

  test('a later sign-in changes nothing and keeps the session the browser had', async () => {
    await allowCarolsEvent();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'carol');
    const first = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/`);
    assert.equal(first.status, 200, first.body);
    const before = await gw.storage.users.findByUserId('carol');
    assert.notEqual(before, undefined);
    assert.equal(await successEvents(), 1);

    await refuseCarolsEvent();
    const again = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/again`);
    assert.ok(again.status >= 500, `status ${again.status}`);
    assert.deepEqual(await gw.storage.users.findByUserId('carol'), before);
    assert.equal(await successEvents(), 1);
    // The earlier session was to end only with the new one made.
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 200, me.body);
    await allowCarolsEvent();
  });
});

/**
 * An OpenID Connect sign-in keeps the provider's side of its session (the
 * id_token, the provider's sid and sub) beside the session, for the
 * provider's logouts to find it by. The database refuses that record, and
 * the sign-in must leave no session such a logout could not end, nor any
 * of its other writes.
 */
describe('an OpenID Connect sign-in whose provider session cannot be written', () => {
  let setup: OidcTestSetup;
  let refuse = false;
  const refusing = (store: UpstreamSessionStore): UpstreamSessionStore => ({
    ...store,
    save: (record) =>
      refuse ? Promise.reject(new Error('oidc_sessions refused')) : store.save(record),
  });
  before(async () => {
    setup = await startOidcSetup(() => ({}), {
      gateway: {
        wrapStorage: (storage: GatewayStorage): GatewayStorage => ({
          ...storage,
          upstreamSessions: refusing(storage.upstreamSessions),
          writeTogether: (work) =>
            storage.writeTogether((stores) =>
              work({ ...stores, upstreamSessions: refusing(stores.upstreamSessions) }),
            ),
        }),
      },
    });
  });
  after(async () => {
    refuse = false;
    await setup.close();
  });

  const successEvents = async (): Promise<number> =>
    (await setup.gw.storage.audit.list({ kind: 'sign_in', outcome: 'success', limit: 50 })).length;
  const activeSessions = (): Promise<number> =>
    setup.gw.storage.sessions.countActive(Date.now(), 0);
  const me = async (browser: TestBrowser): Promise<number> =>
    (await browser.open(`${setup.gw.url}/_sso/me`, { accept: 'application/json' })).status;

  test('a first sign-in leaves no user, no event, no session and no cookie', async () => {
    refuse = true;
    const browser = setup.gw.browser();
    const page = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`, 'alice');
    assert.ok(page.status >= 500, `status ${page.status}`);
    assert.equal(browser.cookies(setup.gw.url).has('ssogate_session'), false);
    assert.equal(await setup.gw.storage.users.findByUserId('alice'), undefined);
    assert.equal(await successEvents(), 0);
    assert.equal(await activeSessions(), 0);
    assert.equal(await me(browser), 401);
  });

  test('a later sign-in changes nothing and keeps the session the browser had', async () => {
    refuse = false;
    const browser = setup.gw.browser();
    const first = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`, 'bob');
    assert.equal(first.url, `${setup.gw.url}/`, first.body.slice(0, 300));
    const before = await setup.gw.storage.users.findByUserId('bob');
    assert.notEqual(before, undefined);
    const events = await successEvents();
    const sessions = await activeSessions();

    refuse = true;
    const again = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`, 'bob');
    assert.ok(again.status >= 500, `status ${again.status}`);
    assert.deepEqual(await setup.gw.storage.users.findByUserId('bob'), before);
    assert.equal(await successEvents(), events);
    assert.equal(await activeSessions(), sessions);
    // The earlier session was to end only with the new one made.
    assert.equal(await me(browser), 200);
  });
});
