import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayStorage } from '../../app/open-storage.js';
import { openStorage } from '../../app/open-storage.js';
import type { ExampleServer } from '../../example-server/index.js';
import { exampleEntries, startExampleServer } from '../../example-server/index.js';
import { loadConfig } from '../../foundation/config/load-config.js';
import { cookieNames } from '../../foundation/web/cookies.js';
import type { GatewayProcess } from '../../multi-instance/test-support/gateway-process.js';
import {
  instanceSettings,
  sharedFileSettings,
  startGatewayProcess,
} from '../../multi-instance/test-support/gateway-process.js';
import { isRequestTo, logLine, logLines } from '../../multi-instance/test-support/worker-logs.js';
import { TestBrowser } from '../../test-support/browser.js';
import { freePort } from '../../test-support/free-port.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestGateway, TestGatewayOptions } from '../../test-support/gateway-fixture.js';
import {
  signInAtExample,
  startTestGateway,
  storedApiToken,
} from '../../test-support/gateway-fixture.js';
import type { TestBackend } from '../../test-support/test-backend.js';
import { needsPostgresAndRedis, testBackend } from '../../test-support/test-backend.js';
import { waitUntil } from '../../test-support/wait-until.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import {
  signedInCookie,
  startEchoUpstream,
} from '../reverse-proxy/test-support/upstream-fixture.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { assertion, newAuthenticator, registration } from './test-support/authenticator.js';
import { base32Decode, base32Encode, matchingStep, totpCode } from './totp.js';

/*
 * The second factor works across instances and workers as on one gateway
 * (docs/security.md#second-factor): two gateways on one storage (PostgreSQL
 * and Redis, or one SQLite file), and one gateway of two worker processes.
 * Each test says how it fails were a piece of state kept by one instance
 * alone: the last used time step, the used recovery codes, the failure
 * counts, the passkey challenges and counters, or the revocations that make
 * the other instance forget the sessions it remembers. Each of these was
 * swapped for an in-memory stand-in (or its revocation left out) to see
 * its test fail.
 */

/** One time step (RFC 6238 §4.1): the clock moves by this to the next code. */
const stepMs = 30_000;

/** The users of these tests; the rule asks each for a second factor. */
const users = ['tia', 'rey', 'lim', 'cam', 'ada', 'pax'];
const factorRule = [{ path: '/pay', users, factor: 2 }];

/** A gateway's answer to a request of its own making, nothing followed. */
interface Answer {
  readonly status: number;
  readonly location: string | null;
  readonly body: string;
}

const idOf = (cookie: string) => cookie.split('=')[1] ?? '';

async function get(url: string, cookie: string): Promise<Answer> {
  const response = await fetch(url, {
    headers: { cookie, accept: 'text/html' },
    redirect: 'manual',
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

/** A form posted with the session's cookie and form token, as the factor pages' forms are. */
async function post(url: string, cookie: string, fields: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ csrf: csrfTokenFor(idOf(cookie)), return_to: '/pay', ...fields }),
    redirect: 'manual',
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

/** A code or a recovery code given on `gw`'s factor page. */
const giveCode = (gw: TestGateway, cookie: string, fields: Record<string, string>) =>
  post(`${gw.url}/_sso/factor`, cookie, fields);

/** Forward-auth's check of /pay on `gw` (the remembered path: session cache, fast path). */
async function payCheck(
  gw: TestGateway,
  cookie: string,
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${gw.url}/_sso/auth`, {
    headers: {
      cookie,
      'x-forwarded-host': new URL(gw.gateway.config.publicUrl).host,
      'x-forwarded-uri': '/pay',
      'x-forwarded-proto': 'http',
    },
  });
  return { status: response.status, body: await response.text() };
}

const remembered = (gw: TestGateway, cookie: string) =>
  gw.gateway.sessionCache.remembered(idOf(cookie)) !== undefined;

/** The challenge of a passkey page (its form's data-options). */
function challengeOf(body: string): string {
  const options = /data-options="([^"]*)"/.exec(body)?.[1]?.replaceAll('&quot;', '"');
  const challenge = /"challenge":"([^"]+)"/.exec(options ?? '')?.[1];
  assert.ok(challenge !== undefined, `a passkey page:\n${body}`);
  return challenge;
}

/** The audit event of a refused second factor of `userId`, with its code. */
async function refusalAudited(gw: TestGateway, userId: string, code: string): Promise<void> {
  const event = await waitForAuditEvent(
    gw.storage.audit,
    { kind: 'second_factor', outcome: 'failure', userId, limit: 10 },
    (found) => found.code === code,
  );
  assert.equal(event.code, code);
}

/** Two gateways on one storage, as two instances of one deployment. */
interface Pair {
  readonly a: TestGateway;
  readonly b: TestGateway;
  close(): Promise<void>;
}

interface PairOptions {
  /** Both gateways' settings, naming the first's port (the second is told the first's public URL). */
  readonly envOfPort: (port: number) => Record<string, string>;
  /** Entries stored through the first. */
  readonly entries?: TestGatewayOptions['entries'];
}

/** Opens a pair on the storage of a backend: the suite's PostgreSQL and Redis, or one SQLite file. */
type OpenPair = (options: PairOptions) => Promise<Pair>;

/**
 * The first gateway on its own storage (`own`, beside the suite's backend),
 * then the second on the first's (`sharedWith`), both on `clock`.
 */
async function openTwo(
  clock: { now: number },
  options: PairOptions,
  own: Record<string, string>,
  sharedWith: (a: TestGateway) => Record<string, string>,
): Promise<readonly [TestGateway, TestGateway]> {
  const a = await startTestGateway({
    clock: () => clock.now,
    env: own,
    envOfPort: options.envOfPort,
    ...(options.entries === undefined ? {} : { entries: options.entries }),
  });
  try {
    const port = Number(new URL(a.url).port);
    const b = await startTestGateway({
      clock: () => clock.now,
      env: { ...own, ...sharedWith(a), ...options.envOfPort(port) },
    });
    return [a, b];
  } catch (error) {
    await a.close();
    throw error;
  }
}

/** Two gateways on the suite's PostgreSQL database and Redis key prefix. */
const onPostgresAndRedis =
  (clock: { now: number }): OpenPair =>
  async (options) => {
    const [a, b] = await openTwo(clock, options, {}, (first) => {
      const { database, redisPrefix } = first.gateway.config;
      assert.equal(database.kind, 'postgres');
      return { SSOGATE_DATABASE_URL: database.url, SSOGATE_REDIS_PREFIX: redisPrefix };
    });
    // The second first: the first's cleanup drops the storage both use.
    return {
      a,
      b,
      async close() {
        await b.close();
        await a.close();
      },
    };
  };

/** Two gateways over one SQLite file, without Redis. */
const onOneSqliteFile =
  (clock: { now: number }): OpenPair =>
  async (options) => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-factor-file-'));
    try {
      const [a, b] = await openTwo(clock, options, sharedFileSettings(dir), () => ({}));
      return {
        a,
        b,
        async close() {
          await b.close();
          await a.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  };

/**
 * The second factor on two gateways sharing their storage, as two instances
 * behind one public URL (the second is told the first's): what one accepts
 * counts on the other, at once. `clock` is both gateways' clock, which the
 * tests move to the next code's step.
 */
function factorAcrossInstances(openPair: OpenPair, clock: { now: number }): void {
  let pair: Pair | undefined;
  let a: TestGateway;
  let b: TestGateway;

  before(async () => {
    // Instances share one secret key: the authenticators' secrets are sealed with it.
    const secretKey = randomBytes(32).toString('base64');
    pair = await openPair({
      envOfPort: (port) => ({
        SSOGATE_PUBLIC_URL: `http://127.0.0.1:${String(port)}`,
        SSOGATE_ACCESS_RULES: JSON.stringify(factorRule),
        SSOGATE_SECRET_KEY: secretKey,
      }),
    });
    ({ a, b } = pair);
    assert.equal(b.gateway.config.publicUrl, a.gateway.config.publicUrl);
    assert.equal(a.gateway.sessionCache.enabled && b.gateway.sessionCache.enabled, true);
  });
  after(async () => {
    await pair?.close();
  });

  /**
   * A new session of `userId` made on `gw` enrols an authenticator there
   * (the code of the clock's step); its key and recovery codes. The clock
   * then moves one step on, to a code not yet used.
   */
  async function enrolled(
    gw: TestGateway,
    userId: string,
  ): Promise<{ secret: Uint8Array; recovery: string[] }> {
    const cookie = await signedInCookie(gw.gateway, userId);
    const page = await get(`${gw.url}/_sso/factor?return_to=%2Fpay`, cookie);
    assert.equal(page.status, 200, page.body);
    const key = /id="factor-secret">([A-Z2-7]+)</.exec(page.body)?.[1] ?? '';
    const secret = base32Decode(key);
    const sealed = /name="enrolment" value="([^"]*)"/.exec(page.body)?.[1];
    assert.ok(secret !== undefined && key !== '' && sealed !== undefined, page.body);
    const saved = await post(`${gw.url}/_sso/factor/enrol`, cookie, {
      enrolment: sealed,
      name: 'Phone',
      code: totpCode(secret, clock.now),
    });
    assert.equal(saved.status, 200, saved.body);
    const recovery = [...saved.body.matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g)].map(
      (match) => match[1] ?? '',
    );
    assert.equal(recovery.length, 10);
    clock.now += stepMs;
    return { secret, recovery };
  }

  test('a one-time code accepted on A is refused on B within its window, then the next code passes on B', async () => {
    const { secret } = await enrolled(a, 'tia');
    const onA = await signedInCookie(a.gateway, 'tia');
    const onB = await signedInCookie(b.gateway, 'tia');
    const code = totpCode(secret, clock.now);
    const accepted = await giveCode(a, onA, { code });
    assert.equal(accepted.status, 303, accepted.body);
    assert.equal(accepted.location, '/pay');

    // Were the last used step kept by each instance apart, B would take the
    // code again (303) and its session would pass /pay.
    const replayed = await giveCode(b, onB, { code });
    assert.equal(replayed.status, 401, replayed.body);
    await refusalAudited(b, 'tia', 'second_factor_invalid');
    assert.equal((await payCheck(b, onB)).status, 401);
    // One step later the code is still within its window (RFC 6238 §5.2), and still refused.
    clock.now += stepMs;
    assert.notEqual(matchingStep(secret, code, clock.now), undefined);
    assert.equal((await giveCode(b, onB, { code })).status, 401);
    // The refusals were for the code's reuse alone: the next code passes on B.
    const next = await giveCode(b, onB, { code: totpCode(secret, clock.now) });
    assert.equal(next.status, 303, next.body);
    assert.equal((await payCheck(b, onB)).status, 204);
  });

  test('a recovery code used on A is refused on B', async () => {
    const { recovery } = await enrolled(a, 'rey');
    const [first = '', second = ''] = recovery;
    const onA = await signedInCookie(a.gateway, 'rey');
    const onB = await signedInCookie(b.gateway, 'rey');
    assert.equal((await giveCode(a, onA, { recovery: first })).status, 303);
    // Used up in the shared database, or B would accept it (303).
    const replayed = await giveCode(b, onB, { recovery: first });
    assert.equal(replayed.status, 401, replayed.body);
    await refusalAudited(b, 'rey', 'second_factor_invalid');
    assert.equal((await giveCode(b, onB, { recovery: second })).status, 303);
  });

  test('wrong codes given on A and on B count toward one limit', async () => {
    const { secret } = await enrolled(a, 'lim');
    const session = await signedInCookie(a.gateway, 'lim');
    const right = totpCode(secret, clock.now);
    const wrong = right === '000000' ? '111111' : '000000';
    // Five wrong codes are free, three on A and two on B; the clock stands still.
    for (const gw of [a, b, a, b, a])
      assert.equal((await giveCode(gw, session, { code: wrong })).status, 401);
    // Counted by each instance apart, B would have seen two and let the right code pass (303).
    const limited = await giveCode(b, session, { code: right });
    assert.equal(limited.status, 429, limited.body);
    assert.match(limited.body, /rate_limited/);
    await refusalAudited(a, 'lim', 'rate_limited');
    assert.equal((await giveCode(a, session, { code: right })).status, 429);
  });

  test("a factor given on A is honoured at once by B's remembered check", async () => {
    const { secret } = await enrolled(a, 'cam');
    const session = await signedInCookie(a.gateway, 'cam');
    // B answers "factor missing" twice, the second time from its cache.
    for (let check = 0; check < 2; check += 1) {
      const refused = await payCheck(b, session);
      assert.equal(refused.status, 401);
      assert.match(refused.body, /"second_factor_required"/);
    }
    assert.equal(remembered(b, session), true);
    const given = await giveCode(a, session, { code: totpCode(secret, clock.now) });
    assert.equal(given.status, 303, given.body);
    // A's write told B to forget the session: without that revocation B's
    // cache would answer 401 "factor missing" until the session's next touch.
    assert.equal((await payCheck(b, session)).status, 204);
    assert.equal((await payCheck(a, session)).status, 204);
  });

  test("an administrator's reset on A ends the user's sessions on B at once, remembered or not", async () => {
    const { secret } = await enrolled(a, 'ada');
    const withFactor = await signedInCookie(b.gateway, 'ada');
    const plain = await signedInCookie(b.gateway, 'ada');
    assert.equal(
      (await giveCode(b, withFactor, { code: totpCode(secret, clock.now) })).status,
      303,
    );
    // B answers "factor present" twice, the second time from its cache.
    assert.deepEqual(
      [(await payCheck(b, withFactor)).status, (await payCheck(b, withFactor)).status],
      [204, 204],
    );
    assert.equal(remembered(b, withFactor), true);
    assert.equal((await get(`${b.url}/_sso/me`, plain)).status, 200);

    const user = await a.storage.users.findByUserId('ada');
    assert.ok(user !== undefined);
    const token = await storedApiToken(a, 'factor-instances-reset');
    const reset = await fetch(`${a.url}/_sso/api/users/${String(user.id)}/second-factors/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(reset.status, 200);
    const answer = (await reset.json()) as { factorsRemoved: number; sessionsEnded: number };
    assert.deepEqual(answer, { factorsRemoved: 1, sessionsEnded: 3 });
    // The reset's end of the sessions reached B before A answered: without
    // it, B's cache would answer 204 "factor present" until the next touch.
    assert.equal(remembered(b, withFactor), false);
    const refused = await payCheck(b, withFactor);
    assert.equal(refused.status, 401);
    assert.match(refused.body, /"unauthenticated"/);
    assert.equal((await get(`${b.url}/_sso/me`, plain)).status, 401);
    assert.deepEqual(await b.storage.secondFactors.list(user.id), []);
  });

  test('a passkey answer taken on B is refused when replayed on A; an old counter is refused', async () => {
    const key = newAuthenticator(a.gateway.config.publicUrl);
    const enrolling = await signedInCookie(a.gateway, 'pax');
    const enrolPage = await get(`${a.url}/_sso/factor/passkey/enrol?return_to=%2Fpay`, enrolling);
    assert.equal(enrolPage.status, 200, enrolPage.body);
    const enrolled = await post(`${a.url}/_sso/factor/passkey/enrol`, enrolling, {
      name: 'Laptop',
      response: registration(key, challengeOf(enrolPage.body)),
    });
    assert.equal(enrolled.status, 200, enrolled.body);

    const session = await signedInCookie(a.gateway, 'pax');
    const askedOnA = await get(`${a.url}/_sso/factor?return_to=%2Fpay`, session);
    const answer = assertion(key, challengeOf(askedOnA.body), { counter: 1 });
    // A's challenge, answered on B: challenges are kept where every instance
    // reads them (kept by A alone, B would refuse it: 400 webauthn_challenge).
    const taken = await post(`${b.url}/_sso/factor/passkey`, session, { response: answer });
    assert.equal(taken.status, 303, taken.body);
    // Replayed on A: its challenge is gone, taken by B's one delete.
    const replayed = await post(`${a.url}/_sso/factor/passkey`, session, { response: answer });
    assert.equal(replayed.status, 400, replayed.body);
    assert.match(replayed.body, /webauthn_challenge/);
    await refusalAudited(a, 'pax', 'webauthn_challenge');
    // A fresh challenge from B, answered on A with the counter B saw: a
    // clone's answer. A counter kept by each instance apart would let A take it (303).
    const askedOnB = await get(`${b.url}/_sso/factor?return_to=%2Fpay`, session);
    const cloned = assertion(key, challengeOf(askedOnB.body), { counter: 1 });
    const refused = await post(`${a.url}/_sso/factor/passkey`, session, { response: cloned });
    assert.equal(refused.status, 401, refused.body);
    assert.match(refused.body, /webauthn_counter/);
  });
}

/**
 * One sign-in for several hosts (docs/design.md#one-sign-in-many-hosts) on
 * two instances: a host's session made by a handoff before the factor is
 * refused by the other instance too, which remembers that; the factor
 * given on the auth host of one reaches the host's session as the other
 * judges it, at once.
 */
function factorOnManyHostsAcrossInstances(openPair: OpenPair, clock: { now: number }): void {
  let wiki: EchoUpstream;
  let pair: Pair | undefined;
  let port = 0;
  const at = (host: string, path: string) => `http://${host}.localhost:${String(port)}${path}`;

  before(async () => {
    wiki = await startEchoUpstream();
    const secretKey = randomBytes(32).toString('base64');
    pair = await openPair({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${String(listening)}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${String(listening)}=${wiki.url}`,
          SSOGATE_ACCESS_RULES: JSON.stringify([
            { path: '/', host: 'wiki.localhost', users: ['alice'], factor: 2 },
          ]),
          SSOGATE_SECRET_KEY: secretKey,
        };
      },
    });
  });
  after(async () => {
    await pair?.close();
    await wiki.close();
  });

  test("a host's session without the factor is refused on B, then passes on B once the factor is given on A", async () => {
    assert.ok(pair !== undefined);
    const { a, b } = pair;
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });
    await signInAtExample(browser, a.example.url);
    const asked = await browser.open(at('wiki', '/page'));
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    const sessionName = cookieNames(false).session;
    const wikiSession = `${sessionName}=${browser.cookies(at('wiki', '/')).get(sessionName) ?? ''}`;
    // B's forward-auth check of the wiki page, as a proxy in front of B asks it.
    const checkOnB = async () => {
      const response = await fetch(`${b.url}/_sso/auth`, {
        headers: {
          cookie: wikiSession,
          'x-forwarded-host': new URL(at('wiki', '/')).host,
          'x-forwarded-uri': '/page',
          'x-forwarded-proto': 'http',
        },
      });
      return { status: response.status, body: await response.text() };
    };
    for (let check = 0; check < 2; check += 1) {
      const refused = await checkOnB();
      assert.equal(refused.status, 401);
      assert.match(refused.body, /"second_factor_required"/);
    }
    assert.equal(remembered(b, wikiSession), true);

    const key = /id="factor-secret">([A-Z2-7]+)</.exec(asked.body)?.[1] ?? '';
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(asked.body)?.[1] ?? '';
    const saved = await browser.submit(at('sso', '/_sso/factor/enrol'), {
      csrf: field('csrf'),
      return_to: field('return_to'),
      enrolment: field('enrolment'),
      name: 'Phone',
      code: totpCode(base32Decode(key) ?? new Uint8Array(0), clock.now),
    });
    assert.equal(saved.status, 200, saved.body);
    // The factor reached wiki's session in A's write, and B forgot what it
    // remembered: without that, B would answer 401 until the next touch.
    assert.equal((await checkOnB()).status, 204);
    await browser.close();
  });
}

describe(
  'a second factor on two instances sharing PostgreSQL and Redis',
  { skip: needsPostgresAndRedis },
  () => {
    const clock = { now: Date.now() };
    describe('behind one public URL', () => {
      factorAcrossInstances(onPostgresAndRedis(clock), clock);
    });
    describe('on many hosts', () => {
      factorOnManyHostsAcrossInstances(onPostgresAndRedis(clock), clock);
    });
  },
);

describe('a second factor on two gateways over one SQLite file', () => {
  const clock = { now: Date.now() };
  describe('behind one public URL', () => {
    factorAcrossInstances(onOneSqliteFile(clock), clock);
  });
  describe('on many hosts', () => {
    factorOnManyHostsAcrossInstances(onOneSqliteFile(clock), clock);
  });
});

/** A request on a connection of its own (no keep-alive), so it may land on either worker. */
function freshRequest(
  url: string,
  headers: Record<string, string>,
  form?: Record<string, string>,
): Promise<number> {
  const body = form === undefined ? undefined : new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        agent: false,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/**
 * One gateway of two workers (SSOGATE_WORKERS=2, src/app/worker-pool.ts),
 * each a process of its own with its own memory: a code accepted through
 * one worker is refused through the other, and the factor it gave passes
 * every worker's check at once. `backendEnv` gives the storage (none: the
 * data directory's SQLite file, which both workers open).
 */
function factorThroughTwoWorkers(backendEnv: () => Promise<TestBackend | undefined>): void {
  let example: ExampleServer;
  let gateway: GatewayProcess;
  let backend: TestBackend | undefined;
  let storage: GatewayStorage;
  let dir: string;
  let url: string;

  before(async () => {
    example = await startExampleServer();
    backend = await backendEnv();
    dir = await mkdtemp(join(tmpdir(), 'ssogate-factor-workers-'));
    const entriesFile = join(dir, 'entries.json');
    const presets = exampleEntries(example.url);
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [{ ...presets.getStyle, isDefault: true }] }),
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      ...instanceSettings(dir, entriesFile),
      ...(backend?.env ?? {}),
      SSOGATE_PUBLIC_URL: url,
      SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/pay', users: ['alice'], factor: 2 }]),
      SSOGATE_WORKERS: '2',
      // Request lines name the worker (pid) that answered.
      SSOGATE_LOG_LEVEL: 'info',
      SSOGATE_REQUEST_LOG: 'all',
    };
    gateway = await startGatewayProcess(port, env);
    // The test's own view of the same storage, to give alice an authenticator.
    storage = await openStorage(loadConfig(env));
  });
  after(async () => {
    await gateway.stop();
    await storage.close();
    await example.close();
    await backend?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  /** The pid of the worker that answered the first POST of a code from log line `from` on. */
  const workerOfCode = async (from: number) =>
    (
      await logLine(
        gateway,
        (line) =>
          isRequestTo(line, '/_sso/factor') && (line.req as { method?: string }).method === 'POST',
        from,
      )
    ).pid;

  test('a code accepted through one worker is refused through the other; every worker honours the factor', async () => {
    const browser = new TestBrowser({ freshConnections: true });
    await signInAtExample(browser, example.url, 'alice');
    const landed = await browser.open(`${url}/_sso/login/example-get?return_to=/landing`);
    assert.equal(landed.url, `${url}/landing`, landed.body);
    const sessionName = cookieNames(false).session;
    const cookie = `${sessionName}=${browser.cookies(url).get(sessionName) ?? ''}`;
    await browser.close();
    const user = await storage.users.findByUserId('alice');
    assert.ok(user !== undefined);
    const secret = randomBytes(20);
    await storage.secondFactors.addTotp({
      factorId: randomUUID(),
      userRowId: user.id,
      name: 'Phone',
      secret: base32Encode(secret),
      lastStep: 0,
      createdAt: Date.now(),
    });

    const form = {
      csrf: csrfTokenFor(idOf(cookie)),
      return_to: '/pay',
      code: totpCode(secret, Date.now()),
    };
    const give = () => freshRequest(`${url}/_sso/factor`, { cookie }, form);
    let from = logLines(gateway).length;
    assert.equal(await give(), 303);
    const accepting = await workerOfCode(from);
    // Replayed until the other worker answers (connections alternate between
    // them): each is refused. A last step kept in a worker's memory would
    // let the other accept it (303).
    const refusing = new Set<unknown>();
    const crossed = () => [...refusing].some((pid) => pid !== accepting);
    for (let replay = 0; replay < 4 && !crossed(); replay += 1) {
      from = logLines(gateway).length;
      assert.equal(await give(), 401);
      refusing.add(await workerOfCode(from));
    }
    assert.ok(crossed(), `no replay reached the other worker:\n${gateway.output.join('')}`);
    const refusal = await waitForAuditEvent(storage.audit, {
      kind: 'second_factor',
      outcome: 'failure',
      userId: 'alice',
    });
    assert.equal(refusal.code, 'second_factor_invalid');

    const checked = logLines(gateway).length;
    const forwarded = {
      cookie,
      'x-forwarded-host': new URL(url).host,
      'x-forwarded-uri': '/pay',
      'x-forwarded-proto': 'http',
    };
    const checks = await Promise.all(
      Array.from({ length: 8 }, () => freshRequest(`${url}/_sso/auth`, forwarded)),
    );
    assert.deepEqual(checks, Array<number>(8).fill(204));
    await waitUntil(
      () =>
        new Set(
          logLines(gateway)
            .slice(checked)
            .filter((line) => isRequestTo(line, '/_sso/auth'))
            .map((line) => line.pid),
        ).size === 2,
      {
        message: () => `checks of /pay on both workers:\n${gateway.output.join('')}`,
        intervalMs: 50,
      },
    );
  });
}

describe('a second factor through two workers on one SQLite file', () => {
  factorThroughTwoWorkers(() => Promise.resolve(undefined));
});

describe(
  'a second factor through two workers on PostgreSQL and Redis',
  { skip: needsPostgresAndRedis },
  () => {
    factorThroughTwoWorkers(() => testBackend());
  },
);
