/**
 * How the gateway's cost grows with the organisation: CPU time per session
 * check and per sign-in as the live sessions grow (10,000, 100,000,
 * 1,000,000), and the gateway's memory at each step, in one run.
 *
 *   npm run bench:scale
 *
 * The gateway runs as a child process as an operator would start it, on
 * SQLite in a temporary folder and, when BENCH_DATABASE_URL and
 * BENCH_REDIS_URL are given, again on PostgreSQL (a fresh database) with
 * sessions in Redis (a prefix of its own, deleted at the end). Sessions are
 * written straight into the store, in bulk, as a sign-in writes them (a
 * random 256-bit id, its hash kept: src/features/sessions/session-service.ts),
 * spread over SCALE_USERS (1,000) users and the example entry; the
 * gateway's process keeps running while the store grows, as a live one
 * would.
 *
 * Two such gateways run side by side, each on its own store: one grows
 * step by step, the control stays at the smallest step. At each step,
 * ROUNDS (5) rounds of turns, the two gateways' turns alternating:
 * - checks: CHECKS (1,500) `GET /_sso/auth` over keep-alive connections on
 *   loopback, each with the cookie of a session never checked before,
 *   picked at random from all stored ones, so every check misses the
 *   gateway's remembered sessions (src/foundation/http/session-cache.ts),
 *   reads the store and writes the session's activity (its last use is two
 *   minutes old: sessions/session-service.ts touchIntervalMs); the
 *   control's checked sessions are then deleted and as many new ones
 *   written, so it keeps its size;
 * - sign-ins: SIGN_INS (60) whole sign-ins through the repository's
 *   example OAuth2 server (src/example-server/), four at a time, each a
 *   new browser already signed in at the server, so only the gateway's
 *   part costs more than a redirect.
 * The figure is the gateway process's own utime + stime (/proc/PID/stat)
 * over a turn, divided by what it answered: CPU, not wall time, as the
 * machine is shared. Printed: the median of the rounds, its ratio to the
 * first step, and the median of each round's ratio to the control's turn
 * beside it (what the machine's other work moves least). RSS is VmRSS
 * after the step's rounds.
 *
 * Then, or alone, the entries part (entriesGateway below): CPU per sign-in
 * start as the configured entries grow from 1 to 1,000.
 *
 * Knobs: SCALE_PARTS (`sessions,entries`), SCALE_SESSIONS
 * (`10000,100000,1000000`), SCALE_MAX_SESSIONS (caps the steps), ROUNDS,
 * CHECKS, SIGN_INS, SCALE_USERS, SCALE_STORES (`sqlite,redis`: fewer to run
 * one), SCALE_ENTRIES (`1,10,100,1000`), STARTS (1,500 a turn). The smallest step must hold
 * ROUNDS × CHECKS + 500 sessions (the warm-up's checks).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import { openStorage } from '../src/app/open-storage.js';
import { compileEntry } from '../src/core/index.js';
import { exampleEntries, startExampleServer } from '../src/example-server/index.js';
import { sessionHash } from '../src/features/sessions/session-service.js';
import { loadConfig } from '../src/foundation/config/load-config.js';
import { TestBrowser } from '../src/test-support/browser.js';
import { signInAtExample } from '../src/test-support/gateway-fixture.js';
import { freePort } from '../src/test-support/free-port.js';
import { benchGateway, cpuMs, rssMiB, signInBenchSettings } from './throughput.js';

const maxSessions = Number(process.env.SCALE_MAX_SESSIONS ?? Number.POSITIVE_INFINITY);
const sessionSteps = (process.env.SCALE_SESSIONS ?? '10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((count) => count > 0 && count <= maxSessions)
  .sort((a, b) => a - b);
const rounds = Number(process.env.ROUNDS ?? 5);
const checksPerTurn = Number(process.env.CHECKS ?? 1500);
const signInsPerTurn = Number(process.env.SIGN_INS ?? 60);
const userCount = Number(process.env.SCALE_USERS ?? 1000);
const entrySteps = (process.env.SCALE_ENTRIES ?? '1,10,100,1000').split(',').map(Number);
const startsPerTurn = Number(process.env.STARTS ?? 1500);
const warmUpChecks = 500;
const warmUpSignIns = 20;
const checkConnections = 16;
const signInConcurrency = 4;
/** How long ago the stored sessions were last used: past the touch interval (one minute). */
const lastUsedAgoMs = 2 * 60_000;
const lifetimeMs = 12 * 60 * 60_000;

/** The session ids (32 random bytes each) stored so far, and which have been checked. */
class SessionIds {
  private bytes = Buffer.alloc(0);
  private checked = new Uint8Array(0);
  private unchecked = 0;

  get count(): number {
    return this.bytes.length / 32;
  }

  add(more: Buffer): void {
    this.bytes = Buffer.concat([this.bytes, more]);
    const checked = new Uint8Array(this.count);
    checked.set(this.checked);
    this.checked = checked;
    this.unchecked += more.length / 32;
  }

  /** The cookie value of a stored session never taken before, picked at random. */
  takeUnchecked(): string {
    if (this.unchecked === 0) throw new Error('every stored session has been checked');
    for (;;) {
      const index = randomInt(this.count);
      if (this.checked[index] === 1) continue;
      this.checked[index] = 1;
      this.unchecked -= 1;
      return this.bytes.subarray(index * 32, index * 32 + 32).toString('base64url');
    }
  }
}

/** A session's record, as the store keeps it. */
interface SessionRow {
  readonly idHash: string;
  readonly userRowId: number;
}

/** Makes `count` new session ids, and the rows that store them, users in turn. */
function newSessions(count: number, userRowIds: readonly number[]): [Buffer, SessionRow[]] {
  const bytes = randomBytes(count * 32);
  const rows: SessionRow[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = bytes.subarray(index * 32, index * 32 + 32).toString('base64url');
    rows.push({
      idHash: sessionHash(id),
      userRowId: userRowIds[index % userRowIds.length] ?? 0,
    });
  }
  return [bytes, rows];
}

/** Where sessions are kept, and how to write many of them fast. */
interface SessionStoreUnderTest {
  readonly name: string;
  /** The gateway's storage settings. */
  readonly env: Record<string, string>;
  write(rows: readonly SessionRow[], entryId: string, now: number): Promise<void>;
  /** Deletes these sessions, as a sign-out would. */
  remove(idHashes: readonly string[], entryId: string): Promise<void>;
  close(): Promise<void>;
}

/** Sessions in the SQLite file: prepared INSERTs, one transaction per batch. */
function sqliteSessions(dir: string): SessionStoreUnderTest {
  let opened: BetterSqlite3.Database | undefined;
  const database = (): BetterSqlite3.Database => {
    if (opened !== undefined) return opened;
    opened = new BetterSqlite3(join(dir, 'ssogate.db'));
    opened.pragma('busy_timeout = 10000');
    return opened;
  };
  return {
    name: 'SQLite',
    env: { SSOGATE_DATA_DIR: dir },
    write(rows, entryId, now) {
      const insert = database().prepare(
        `INSERT INTO sessions (id_hash, user_row_id, entry_id, created_at, last_seen_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      const made = now - lastUsedAgoMs;
      database().transaction(() => {
        for (const row of rows) {
          insert.run(row.idHash, row.userRowId, entryId, made, made, made + lifetimeMs);
        }
      })();
      return Promise.resolve();
    },
    remove(idHashes) {
      const remove = database().prepare('DELETE FROM sessions WHERE id_hash = ?');
      database().transaction(() => {
        for (const idHash of idHashes) remove.run(idHash);
      })();
      return Promise.resolve();
    },
    close() {
      opened?.close();
      return Promise.resolve();
    },
  };
}

/**
 * Sessions in Redis as src/foundation/storage/redis/redis-session-store.ts
 * writes them (a hash with its expiry, the user's and the entry's sets),
 * in pipelines; the rest in a fresh PostgreSQL database.
 */
async function redisSessions(
  dir: string,
  adminUrl: string,
  redisUrl: string,
): Promise<SessionStoreUnderTest> {
  const database = `ssogate_scale_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const prefix = `scale${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(redisUrl);
  const sessionKey = (idHash: string) => `${prefix}session:${idHash}`;
  const entrySet = (entryId: string) => `${prefix}entry-sessions:${entryId}`;
  return {
    name: 'PostgreSQL + Redis',
    env: {
      SSOGATE_DATA_DIR: dir,
      SSOGATE_DATABASE_URL: url.toString(),
      SSOGATE_REDIS_URL: redisUrl,
      SSOGATE_REDIS_PREFIX: prefix,
    },
    async write(rows, entryId, now) {
      const made = now - lastUsedAgoMs;
      const fields = {
        entryId,
        createdAt: String(made),
        lastSeenAt: String(made),
        expiresAt: String(made + lifetimeMs),
      };
      const ttl = made + lifetimeMs - now;
      for (let start = 0; start < rows.length; start += 5000) {
        const batch = rows.slice(start, start + 5000);
        const pipeline = redis.pipeline();
        const byUser = new Map<number, string[]>();
        for (const row of batch) {
          pipeline
            .hset(sessionKey(row.idHash), { ...fields, userRowId: String(row.userRowId) })
            .pexpire(sessionKey(row.idHash), ttl);
          byUser.set(row.userRowId, [...(byUser.get(row.userRowId) ?? []), row.idHash]);
        }
        // The sets in one SADD each a batch: what they hold is what matters, not how it came.
        for (const [userRowId, idHashes] of byUser)
          pipeline.sadd(`${prefix}user-sessions:${userRowId}`, ...idHashes);
        pipeline.sadd(entrySet(entryId), ...batch.map((row) => row.idHash));
        await pipeline.exec();
      }
    },
    async remove(idHashes, entryId) {
      // The users' sets keep the names: a set may name ended sessions (redis-session-store.ts).
      await redis
        .pipeline()
        .del(...idHashes.map(sessionKey))
        .srem(entrySet(entryId), ...idHashes)
        .exec();
    },
    async close() {
      // UNLINK frees the memory in Redis's background thread, not blocking others.
      const stream = redis.scanStream({ match: `${prefix}*`, count: 10_000 });
      for await (const keys of stream as AsyncIterable<string[]>) {
        if (keys.length > 0) await redis.unlink(...keys);
      }
      redis.disconnect();
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A gateway on its own store, the sessions it holds, and the turns measured on it. */
interface Subject {
  /** Grows its store to `target` sessions; resolves the seconds it took. */
  grow(target: number): Promise<number>;
  /** Checks `count` sessions never checked before; resolves the gateway's CPU µs a check. */
  checkTurn(count: number): Promise<number>;
  /** Signs in `count` times; resolves the gateway's CPU ms a sign-in. */
  signInTurn(count: number): Promise<number>;
  /**
   * Deletes the sessions checked since the last call and writes as many new
   * ones: the control's store keeps its size while it is checked.
   */
  replaceChecked(): Promise<void>;
  rssMiB(): number;
  /** What the gateway wrote (warnings and errors), for a failed run. */
  output(): string;
  stop(): Promise<void>;
}

async function startSubject(store: SessionStoreUnderTest, exampleUrl: string): Promise<Subject> {
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...store.env,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_PUBLIC_URL: gatewayUrl,
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    SSOGATE_SIGN_INS_PER_MINUTE: '100000',
    SSOGATE_PENDING_SIGN_INS_MAX: '10000000',
  };
  const entry = compileEntry(exampleEntries(exampleUrl).standard).input;
  const userRowIds: number[] = [];
  const storage = await openStorage(loadConfig({ ...env, SSOGATE_PORT: String(port) }));
  try {
    await storage.entries.create(entry, 0);
    // Made before the sessions written next, as a user is before its sessions.
    const madeAt = Date.now() - 2 * lastUsedAgoMs;
    for (let index = 0; index < userCount; index += 1) {
      const { user } = await storage.users.insertIfAbsent(
        { userId: `scale-${index}`, sourceEntryId: entry.id, email: `u${index}@example.test` },
        madeAt,
      );
      userRowIds.push(user.id);
    }
  } finally {
    await storage.close();
  }
  const gateway = await benchGateway(env, port);
  const pid = gateway.pid ?? 0;
  const ids = new SessionIds();
  let checked: string[] = [];

  const add = async (count: number): Promise<void> => {
    const [bytes, rows] = newSessions(count, userRowIds);
    await store.write(rows, entry.id, Date.now());
    ids.add(bytes);
  };

  const signIn = async (): Promise<void> => {
    const browser = new TestBrowser();
    // Signed in at the OAuth2 server first, so its authorization is silent (not the gateway's CPU).
    await signInAtExample(browser, exampleUrl, 'alice');
    const page = await browser.open(`${gatewayUrl}/_sso/login/${entry.id}?return_to=/_sso/me`);
    if (page.status !== 200) throw new Error(`sign-in: ${page.status} ${page.body}`);
  };

  return {
    async grow(target) {
      const started = Date.now();
      // Batches of 10,000, so the gateway waits for the write lock briefly.
      while (ids.count < target) await add(Math.min(10_000, target - ids.count));
      return (Date.now() - started) / 1000;
    },

    async checkTurn(count) {
      const cookies = Array.from({ length: count }, () => ids.takeUnchecked());
      checked.push(...cookies);
      // New connections each turn: the gateway closes those idle past its
      // keep-alive timeout, as while the store grows, and a request written
      // as one closes fails.
      const checks = new Pool(gatewayUrl, { connections: checkConnections });
      const before = cpuMs(pid);
      await Promise.all(
        Array.from({ length: checkConnections }, async () => {
          for (let id = cookies.pop(); id !== undefined; id = cookies.pop()) {
            const response = await checks.request({
              path: '/_sso/auth',
              method: 'GET',
              headers: { cookie: `ssogate_session=${id}` },
            });
            const body = await response.body.text();
            if (response.statusCode !== 204)
              throw new Error(`check answered ${response.statusCode}: ${body}`);
          }
        }),
      );
      const cpu = cpuMs(pid) - before;
      await checks.close();
      return (cpu / count) * 1000;
    },

    async signInTurn(count) {
      let left = count;
      const before = cpuMs(pid);
      await Promise.all(
        Array.from({ length: signInConcurrency }, async () => {
          while (left > 0) {
            left -= 1;
            await signIn();
          }
        }),
      );
      return (cpuMs(pid) - before) / count;
    },

    async replaceChecked() {
      await store.remove(checked.map(sessionHash), entry.id);
      await add(checked.length);
      checked = [];
    },

    rssMiB: () => rssMiB(pid),

    output: () => gateway.output.join(''),

    async stop() {
      await gateway.stop();
    },
  };
}

interface StepResult {
  readonly store: string;
  readonly sessions: number;
  /** The gateway at `sessions`, and the control at the smallest step in the same rounds. */
  readonly checkUs: number[];
  readonly controlCheckUs: number[];
  readonly signInMs: number[];
  readonly controlSignInMs: number[];
  readonly rssMiB: number;
  readonly controlRssMiB: number;
}

/**
 * Two gateways on stores of their own: one grows step by step, the control
 * stays at the smallest step; their turns alternate in every round, so
 * both meet the same machine, and the ratio of the two is what the machine's
 * other work moves least.
 */
async function measureStore(
  newStore: () => Promise<SessionStoreUnderTest>,
  exampleUrl: string,
): Promise<StepResult[]> {
  const stores = [await newStore(), await newStore()];
  const [grown, control] = await Promise.all(
    stores.map((store) => startSubject(store, exampleUrl)),
  );
  if (grown === undefined || control === undefined) throw new Error('no gateway');
  const name = stores[0]?.name ?? '';
  const results: StepResult[] = [];
  try {
    for (const subject of [control, grown]) {
      await subject.grow(sessionSteps[0] ?? 0);
      await subject.checkTurn(warmUpChecks);
      await subject.signInTurn(warmUpSignIns);
    }
    await control.replaceChecked();
    for (const target of sessionSteps) {
      const fillSeconds = await grown.grow(target);
      const result: StepResult = {
        store: name,
        sessions: target,
        checkUs: [],
        controlCheckUs: [],
        signInMs: [],
        controlSignInMs: [],
        rssMiB: 0,
        controlRssMiB: 0,
      };
      for (let round = 1; round <= rounds; round += 1) {
        result.controlCheckUs.push(await control.checkTurn(checksPerTurn));
        result.checkUs.push(await grown.checkTurn(checksPerTurn));
        result.controlSignInMs.push(await control.signInTurn(signInsPerTurn));
        result.signInMs.push(await grown.signInTurn(signInsPerTurn));
        await control.replaceChecked();
      }
      results.push({ ...result, rssMiB: grown.rssMiB(), controlRssMiB: control.rssMiB() });
      const fixed = (values: readonly number[], digits: number) =>
        values.map((value) => value.toFixed(digits)).join(' / ');
      process.stdout.write(
        `${name}, ${target.toLocaleString('en-US')} sessions (filled in ${fillSeconds.toFixed(1)} s, ` +
          `load ${(loadavg()[0] ?? 0).toFixed(1)}): check ${fixed(result.checkUs, 0)} µs ` +
          `(control ${fixed(result.controlCheckUs, 0)}), sign-in ${fixed(result.signInMs, 2)} ms ` +
          `(control ${fixed(result.controlSignInMs, 2)}), RSS ${grown.rssMiB().toFixed(0)} MiB ` +
          `(control ${control.rssMiB().toFixed(0)})\n`,
      );
    }
  } catch (error) {
    process.stderr.write(`gateway's output:\n${grown.output()}\ncontrol's:\n${control.output()}\n`);
    throw error;
  } finally {
    await Promise.all([grown.stop(), control.stop()]);
    await Promise.all(stores.map((store) => store.close()));
  }
  return results;
}

/** The median of the ratios of two series measured in the same rounds. */
function medianRatio(values: readonly number[], controls: readonly number[]): number {
  return median(values.map((value, index) => value / (controls[index] ?? Number.NaN)));
}

function table(results: readonly StepResult[]): string {
  const lines = [
    '| store | live sessions | CPU µs a check | ÷ first step | ÷ control, same rounds | CPU ms a sign-in | ÷ first step | ÷ control, same rounds | RSS MiB (control) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const firsts = new Map<string, StepResult>();
  for (const result of results) {
    const first = firsts.get(result.store) ?? result;
    firsts.set(result.store, first);
    const check = median(result.checkUs);
    const signIn = median(result.signInMs);
    lines.push(
      `| ${result.store} | ${result.sessions.toLocaleString('en-US')} | ${check.toFixed(0)} | ` +
        `×${(check / median(first.checkUs)).toFixed(2)} | ` +
        `×${medianRatio(result.checkUs, result.controlCheckUs).toFixed(2)} | ${signIn.toFixed(2)} | ` +
        `×${(signIn / median(first.signInMs)).toFixed(2)} | ` +
        `×${medianRatio(result.signInMs, result.controlSignInMs).toFixed(2)} | ` +
        `${result.rssMiB.toFixed(0)} (${result.controlRssMiB.toFixed(0)}) |`,
    );
  }
  return lines.join('\n');
}

/**
 * The entries part: CPU per sign-in start (`GET /_sso/login/<entry>`, the
 * redirect to the provider and the pending sign-in written) with 1 to
 * SCALE_ENTRIES entries configured, each start naming one at random. A
 * gateway per step, on SQLite, its turns alternating with a control of
 * one entry that runs throughout.
 */
async function entriesGateway(
  count: number,
  exampleUrl: string,
): Promise<{ startTurn(starts: number): Promise<number>; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-scale-'));
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const env = signInBenchSettings(dir, gatewayUrl);
  const ids = Array.from({ length: count }, (_, index) => `scale-${index}`);
  const storage = await openStorage(loadConfig({ ...env, SSOGATE_PORT: String(port) }));
  try {
    for (const [index, id] of ids.entries()) {
      const input = { ...exampleEntries(exampleUrl).standard, id, name: `Scale ${index}` };
      await storage.entries.create(compileEntry(input).input, index);
    }
  } finally {
    await storage.close();
  }
  const gateway = await benchGateway(env, port);
  const pid = gateway.pid ?? 0;
  const client = new Pool(gatewayUrl, { connections: checkConnections });
  return {
    async startTurn(starts) {
      let left = starts;
      const before = cpuMs(pid);
      await Promise.all(
        Array.from({ length: checkConnections }, async () => {
          while (left > 0) {
            left -= 1;
            const response = await client.request({
              path: `/_sso/login/${ids[randomInt(count)] ?? ''}?return_to=/`,
              method: 'GET',
            });
            const body = await response.body.text();
            if (response.statusCode !== 302 && response.statusCode !== 303)
              throw new Error(`start answered ${response.statusCode}: ${body}`);
          }
        }),
      );
      return ((cpuMs(pid) - before) / starts) * 1000;
    },
    async stop() {
      await client.close();
      await gateway.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface EntriesResult {
  readonly entries: number;
  readonly startUs: number[];
  readonly controlStartUs: number[];
}

async function measureEntries(exampleUrl: string): Promise<EntriesResult[]> {
  const control = await entriesGateway(1, exampleUrl);
  const results: EntriesResult[] = [];
  try {
    await control.startTurn(warmUpChecks);
    for (const count of entrySteps) {
      const grown = await entriesGateway(count, exampleUrl);
      try {
        await grown.startTurn(warmUpChecks);
        const result: EntriesResult = { entries: count, startUs: [], controlStartUs: [] };
        for (let round = 1; round <= rounds; round += 1) {
          result.controlStartUs.push(await control.startTurn(startsPerTurn));
          result.startUs.push(await grown.startTurn(startsPerTurn));
        }
        results.push(result);
        process.stdout.write(
          `${count.toLocaleString('en-US')} entries (load ${(loadavg()[0] ?? 0).toFixed(1)}): start ` +
            `${result.startUs.map((us) => us.toFixed(0)).join(' / ')} µs (control ` +
            `${result.controlStartUs.map((us) => us.toFixed(0)).join(' / ')})\n`,
        );
      } finally {
        await grown.stop();
      }
    }
  } finally {
    await control.stop();
  }
  return results;
}

function entriesTable(results: readonly EntriesResult[]): string {
  const first = results[0];
  const lines = [
    '| entries | CPU µs a sign-in start | ÷ first step | ÷ control, same rounds |',
    '| ---: | ---: | ---: | ---: |',
  ];
  for (const result of results) {
    const start = median(result.startUs);
    lines.push(
      `| ${result.entries.toLocaleString('en-US')} | ${start.toFixed(0)} | ` +
        `×${(start / median(first?.startUs ?? [])).toFixed(2)} | ` +
        `×${medianRatio(result.startUs, result.controlStartUs).toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const parts = (process.env.SCALE_PARTS ?? 'sessions,entries').split(',');
  const smallest = sessionSteps[0] ?? 0;
  if (parts.includes('sessions') && smallest < rounds * checksPerTurn + warmUpChecks)
    throw new Error(`the smallest step needs ${rounds * checksPerTurn + warmUpChecks} sessions`);
  const storeNames = parts.includes('sessions')
    ? (process.env.SCALE_STORES ?? 'sqlite,redis').split(',')
    : [];
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const example = await startExampleServer({ host: '127.0.0.1' });
  const dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-scale-'));
    dirs.push(dir);
    return dir;
  };
  const results: StepResult[] = [];
  let entriesResults: EntriesResult[] = [];
  try {
    if (parts.includes('entries')) entriesResults = await measureEntries(example.url);
    if (storeNames.includes('sqlite'))
      results.push(
        ...(await measureStore(async () => sqliteSessions(await newDir()), example.url)),
      );
    if (storeNames.includes('redis') && databaseUrl !== undefined && redisUrl !== undefined)
      results.push(
        ...(await measureStore(
          async () => redisSessions(await newDir(), databaseUrl, redisUrl),
          example.url,
        )),
      );
  } finally {
    await example.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
  if (results.length > 0)
    process.stdout.write(
      `\n${new Date().toISOString()}, medians of ${rounds} rounds, ${checksPerTurn} checks and ` +
        `${signInsPerTurn} sign-ins a turn, the gateway process's CPU; the control stays at ` +
        `${smallest.toLocaleString('en-US')} sessions:\n${table(results)}\n`,
    );
  if (entriesResults.length > 0)
    process.stdout.write(
      `\nsign-in starts, ${startsPerTurn} a turn, the control has one entry:\n` +
        `${entriesTable(entriesResults)}\n`,
    );
}

await main();
