import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import type { RoundTrip, RoundTripLog } from '../../test-support/round-trips.js';
import { recordRoundTrips, recordSqliteStatements } from '../../test-support/round-trips.js';
import { needsPostgresAndRedis, testBackendName } from '../../test-support/test-backend.js';
import type { OidcTestSetup } from '../../foundation/oidc/test-support/oidc-gateway.js';
import { startOidcSetup } from '../../foundation/oidc/test-support/oidc-gateway.js';
import { signInAtProvider } from '../../foundation/oidc/test-support/openid-provider.js';

/** A sign-in's three requests, each with the round trips it made. */
interface SignInTrips {
  readonly start: readonly string[];
  readonly callback: readonly string[];
  readonly landing: readonly string[];
}

/** One sign-in of a known user, each of its three requests with what `trips` recorded. */
async function signInTrips(gw: TestGateway, trips: RoundTripLog): Promise<SignInTrips> {
  const browser = gw.browser();
  await signInAtExample(browser, gw.example.url);
  trips.take();
  const start = await browser.exchange(
    'GET',
    `${gw.url}/_sso/login/example-standard?return_to=/landing`,
  );
  assert.equal(start.status, 302);
  const atStart = trips.take();
  const authorize = await browser.exchange('GET', start.headers.get('location') ?? '');
  trips.take();
  const callback = await browser.exchange('GET', authorize.headers.get('location') ?? '');
  assert.equal(callback.status, 302);
  const atCallback = trips.take();
  const landing = await browser.exchange(
    'GET',
    new URL(callback.headers.get('location') ?? '', gw.url).href,
  );
  assert.equal(landing.status, 200);
  return { start: named(atStart), callback: named(atCallback), landing: named(trips.take()) };
}

/**
 * Several sign-ins after a first (which makes the user's row and reads the
 * entries), and of each request the run with the fewest trips: the
 * gateway's own timers (the expiry sweep, the subscriber's heartbeat) may
 * fall into any one of them.
 */
async function fewestTrips(gw: TestGateway, trips: RoundTripLog): Promise<SignInTrips> {
  await signInTrips(gw, trips);
  const rounds: SignInTrips[] = [];
  for (let round = 0; round < 5; round++) rounds.push(await signInTrips(gw, trips));
  const fewest = (phase: keyof SignInTrips) =>
    rounds.map((round) => round[phase]).sort((a, b) => a.length - b.length)[0] ?? [];
  return { start: fewest('start'), callback: fewest('callback'), landing: fewest('landing') };
}

/**
 * The round trips to PostgreSQL and Redis of one sign-in of a known user
 * (docs/benchmarks.md#round-trips-of-a-sign-in): each is a wait, and the
 * driver's work around it, that a sign-in pays in latency and CPU. Counted,
 * not timed, so that one more cannot creep in unseen.
 */
describe(
  'the round trips of a sign-in on PostgreSQL and Redis',
  { skip: needsPostgresAndRedis },
  () => {
    let gw: TestGateway;
    let trips: RoundTripLog;
    before(async () => {
      // Before the gateway opens its pool: a connection's query is bound when it connects.
      trips = recordRoundTrips(
        Number(new URL(process.env.SSOGATE_TEST_REDIS_URL ?? '').port || 6379),
      );
      gw = await startTestGateway({ entries: ({ standard }) => [standard] });
    });
    after(async () => {
      trips.stop();
      await gw.close();
    });

    test('a start is two, a callback eight, the first page none', async () => {
      const fewest = await fewestTrips(gw, trips);
      assert.deepEqual(fewest.start, [
        // Both start limits, in turn, in one script (start-limit.ts).
        'redis evalsha',
        // The pending sign-in, with its browser's cap.
        'redis evalsha',
      ]);
      assert.deepEqual(fewest.callback, [
        // The pending sign-in consumed, committed before the calls out.
        'redis getdel',
        'postgres begin',
        // The user read with the sign-in's time written (provision-user.ts).
        'postgres update users',
        'postgres insert audit_events',
        // The session's write-ahead record (storage/session-write-ahead.ts).
        'postgres insert sessions',
        'postgres commit',
        // The session, once the rows it names have committed (app/open-storage.ts).
        'redis multi hset pexpire sadd pexpire pexpire sadd pexpire pexpire exec',
        // Its record deleted: Redis holds it, and the sweep must not write it again.
        'postgres delete sessions',
      ]);
      // The page after the callback finds the session in the gateway's memory.
      assert.deepEqual(fewest.landing, []);
    });
  },
);

/**
 * The statements SQLite runs for one sign-in of a known user: none waits,
 * but each costs the event loop the driver's and the database's work, and
 * a COMMIT its write to the log. Counted, never timed.
 */
describe(
  'the statements of a sign-in on SQLite',
  { skip: testBackendName() === 'sqlite' ? false : 'runs on SQLite alone' },
  () => {
    let gw: TestGateway;
    let statements: RoundTripLog;
    before(async () => {
      statements = recordSqliteStatements();
      gw = await startTestGateway({ entries: ({ standard }) => [standard] });
    });
    after(async () => {
      statements.stop();
      await gw.close();
    });

    test('a start is two, a callback eight, the first page none', async () => {
      const fewest = await fewestTrips(gw, statements);
      assert.deepEqual(fewest.start, [
        // The pending sign-in, committed alone: the count beside it writes nothing.
        'sqlite insert pending_sign_ins',
        // The browser's others, for its cap (none to prune).
        'sqlite select pending_sign_ins',
      ]);
      assert.deepEqual(fewest.callback, [
        // The pending sign-in consumed, committed before the calls out.
        'sqlite delete pending_sign_ins',
        'sqlite begin',
        'sqlite update users',
        'sqlite insert audit_events',
        'sqlite insert sessions',
        'sqlite commit',
      ]);
      assert.deepEqual(fewest.landing, []);
    });
  },
);

/**
 * The commits of one OpenID Connect sign-in of a known user on SQLite, each
 * a write to the log: what the provider's session keeps (its id_token, sid
 * and sub) is written in the callback's transaction, with the user, the
 * audit event and the session, not with a commit of its own after it
 * (keep-provider-session.ts). Counted, never timed; the fewest of several
 * sign-ins, since the gateway's timers may write during any one.
 */
describe(
  'the commits of an OpenID Connect sign-in on SQLite',
  { skip: testBackendName() === 'sqlite' ? false : 'runs on SQLite alone' },
  () => {
    let setup: OidcTestSetup;
    let statements: RoundTripLog;
    before(async () => {
      statements = recordSqliteStatements();
      setup = await startOidcSetup();
    });
    after(async () => {
      statements.stop();
      await setup.close();
    });

    const signIn = async (): Promise<string[][]> => {
      statements.take();
      const page = await signInAtProvider(
        setup.gw.browser(),
        `${setup.gw.url}/_sso/login/oidc`,
        'alice',
      );
      assert.equal(page.url, `${setup.gw.url}/`, page.body.slice(0, 300));
      return commitsOf(named(statements.take()));
    };

    test("a sign-in is three commits, the provider's session in the callback's", async () => {
      await signIn();
      const rounds: string[][][] = [];
      for (let round = 0; round < 5; round++) rounds.push(await signIn());
      const fewest = rounds.sort((a, b) => a.length - b.length)[0];
      assert.deepEqual(fewest, [
        // The start's pending sign-in.
        ['sqlite insert pending_sign_ins'],
        // The pending sign-in consumed, committed before the calls out.
        ['sqlite delete pending_sign_ins'],
        [
          'sqlite update users',
          'sqlite insert audit_events',
          'sqlite insert oidc_sessions',
          'sqlite insert sessions',
        ],
      ]);
    });
  },
);

/**
 * The pages one sign-in of a known user writes to SQLite's log: each
 * commit appends every b-tree page it changed, a table's and each of its
 * indexes' (migrations/0023-without-rowid.ts: a table keyed by text
 * without a second b-tree for its key; 0024-audit-reference-partial-index.ts:
 * no reference index page for an event without one), and a checkpoint copies them
 * all into the file again. Counted as the log's frames after a checkpoint
 * that emptied it (a log this small starts no checkpoint thread:
 * sqlite/background-checkpoints.ts), never timed; the fewest of several
 * sign-ins, since the gateway's timers may write during any one.
 */
describe(
  'the pages a sign-in writes on SQLite',
  { skip: testBackendName() === 'sqlite' ? false : 'runs on SQLite alone' },
  () => {
    let dir: string;
    let gw: TestGateway;
    let file: BetterSqlite3.Database;
    const checkpoint = (mode: 'TRUNCATE' | 'PASSIVE') => {
      const [result] = file.pragma(`wal_checkpoint(${mode})`) as { busy: number; log: number }[];
      assert.equal(result?.busy, 0);
      return result.log;
    };
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ssogate-pages-'));
      const filename = join(dir, 'gateway.db');
      gw = await startTestGateway({
        entries: ({ standard }) => [standard],
        env: { SSOGATE_DATABASE_URL: `sqlite:${filename}` },
      });
      file = new BetterSqlite3(filename);
      file.pragma('busy_timeout = 5000');
    });
    after(async () => {
      file.close();
      await gw.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('a sign-in writes 17 pages', async () => {
      const unrecorded: RoundTripLog = { take: () => [], stop: () => undefined };
      await signInTrips(gw, unrecorded);
      const pages: number[] = [];
      for (let round = 0; round < 5; round++) {
        checkpoint('TRUNCATE');
        await signInTrips(gw, unrecorded);
        pages.push(checkpoint('PASSIVE'));
      }
      assert.equal(Math.min(...pages), 17, `pages of each sign-in: ${pages.join(', ')}`);
    });
  },
);

/** Each trip as its server and what it did: the SQL's verb and table, or the Redis commands. */
function named(list: readonly RoundTrip[]): string[] {
  return list.map((trip) => {
    if (trip.server === 'redis') return `redis ${trip.what}`;
    const words = trip.what.replaceAll('"', '').split(/\s+/);
    const verb = (words[0] ?? '').toLowerCase();
    const table =
      verb === 'insert' || verb === 'delete'
        ? words[2]
        : verb === 'update'
          ? words[1]
          : verb === 'select'
            ? words[words.findIndex((word) => word.toLowerCase() === 'from') + 1]
            : undefined;
    return table === undefined ? `${trip.server} ${verb}` : `${trip.server} ${verb} ${table}`;
  });
}

/**
 * The writes of a run of SQLite statements, by the commit that wrote them:
 * those between BEGIN and COMMIT together, any other write alone (SQLite
 * commits it by itself). Reads are left out.
 */
function commitsOf(list: readonly string[]): string[][] {
  const commits: string[][] = [];
  let open: string[] | undefined;
  for (const statement of list) {
    if (statement === 'sqlite begin') open = [];
    else if (statement === 'sqlite commit') {
      if (open !== undefined && open.length > 0) commits.push(open);
      open = undefined;
    } else if (/^sqlite (insert|update|delete)\b/.test(statement)) {
      if (open === undefined) commits.push([statement]);
      else open.push(statement);
    }
  }
  return commits;
}
