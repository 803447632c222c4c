import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { sessionHash } from '../src/features/sessions/session-service.js';
import type { OutcomeLog } from './outcomes.js';
import type { HeldSession } from './sessions-held.js';

/**
 * The checks at the end of a run, read directly from the database, Redis,
 * the gateway's answers and its logs. Each returns the broken promises it
 * found, as sentences; an empty list is a pass.
 */

export interface StoreAccess {
  /** `sqlite:PATH` or a postgres:// URL. */
  readonly databaseUrl: string;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
}

export interface InvariantResult {
  readonly name: string;
  readonly broken: string[];
  /** Figures the report shows beside the verdict. */
  readonly figures: Record<string, number>;
}

type Row = Record<string, unknown>;

/** Runs one query on either database. */
async function query(access: StoreAccess, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (access.databaseUrl.startsWith('sqlite:')) {
    const db = new BetterSqlite3(access.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
      return statement.all(...params) as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: access.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Runs `use` on a Redis connection of its own, closed after. */
async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Visits every key matching `pattern`, one SCAN page at a time. */
async function forEachKey(
  redis: Redis,
  pattern: string,
  visit: (key: string) => Promise<void>,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) await visit(key);
  } while (cursor !== '0');
}

/** Session counts per user row, wherever sessions live. */
async function sessionsPerUserRow(access: StoreAccess): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const add = (row: number) => counts.set(row, (counts.get(row) ?? 0) + 1);
  if (access.redisUrl === undefined) {
    for (const row of await query(access, 'select user_row_id from sessions')) {
      add(Number(row.user_row_id));
    }
    return counts;
  }
  await withRedis(access.redisUrl, (redis) =>
    forEachKey(redis, `${access.redisPrefix}session:*`, async (key) => {
      const row = await redis.hget(key, 'userRowId');
      if (row !== null) add(Number(row));
    }),
  );
  return counts;
}

/** Whether the session store holds the session of this cookie. */
async function sessionStored(access: StoreAccess, cookie: string): Promise<boolean> {
  const hash = sessionHash(cookie);
  if (access.redisUrl === undefined) {
    return (await query(access, 'select 1 from sessions where id_hash = $1', [hash])).length === 1;
  }
  const key = `${access.redisPrefix}session:${hash}`;
  return withRedis(access.redisUrl, async (redis) => (await redis.exists(key)) === 1);
}

/**
 * Every completed sign-in has one session and one success event: per user,
 * success events = sessions stored + sessions the load saw end (signed
 * out). Sign-ins whose answer was lost (an instance killed after the
 * commit) count on both sides, as stored sessions and events.
 */
export async function signInsHaveSessionAndEvent(
  access: StoreAccess,
  held: readonly HeldSession[],
  endStates: ReadonlyMap<HeldSession, 'accepted' | 'refused'>,
  excludedUsers: ReadonlySet<string>,
): Promise<InvariantResult> {
  const broken: string[] = [];
  const events = new Map<string, number>();
  for (const row of await query(
    access,
    "select user_id, count(*) as n from audit_events where kind = 'sign_in' and outcome = 'success' group by user_id",
  )) {
    events.set(String(row.user_id), Number(row.n));
  }
  const rowIds = new Map<string, number>();
  for (const row of await query(access, 'select id, user_id from users')) {
    rowIds.set(String(row.user_id), Number(row.id));
  }
  const stored = await sessionsPerUserRow(access);
  const ended = new Map<string, number>();
  for (const session of held) {
    if (endStates.get(session) === 'refused')
      ended.set(session.userId, (ended.get(session.userId) ?? 0) + 1);
  }
  const users = new Set([...events.keys(), ...held.map((session) => session.userId)]);
  let checked = 0;
  for (const user of users) {
    if (excludedUsers.has(user)) continue;
    checked += 1;
    const row = rowIds.get(user);
    const sessions = row === undefined ? 0 : (stored.get(row) ?? 0);
    const expected = sessions + (ended.get(user) ?? 0);
    const got = events.get(user) ?? 0;
    if (got !== expected) {
      broken.push(
        `${user}: ${got} successful sign-in events, but ${sessions} stored sessions and ${ended.get(user) ?? 0} ended ones`,
      );
    }
  }
  for (const session of held) {
    if (session.state === 'live' && !(await sessionStored(access, session.cookie))) {
      broken.push(`${session.userId}: a completed sign-in's session is not stored`);
    }
  }
  const totalEvents = [...events.values()].reduce((sum, n) => sum + n, 0);
  return {
    name: 'every completed sign-in has exactly one session and one audit event',
    broken: broken.slice(0, 50),
    figures: { usersChecked: checked, successEvents: totalEvents, brokenCount: broken.length },
  };
}

/** No user row twice, and none without the sign-in that made it. */
export async function usersWhole(access: StoreAccess): Promise<InvariantResult> {
  const broken: string[] = [];
  for (const row of await query(
    access,
    'select lower(user_id) as id, count(*) as n from users group by lower(user_id) having count(*) > 1',
  )) {
    broken.push(`user ${String(row.id)} has ${String(row.n)} rows`);
  }
  for (const row of await query(
    access,
    `select u.user_id from users u where u.source_entry_id is not null and (
       u.user_name is null or u.email is null or not exists (
         select 1 from audit_events a where a.kind = 'sign_in' and a.outcome = 'success' and a.user_id = u.user_id))`,
  )) {
    broken.push(`user ${String(row.user_id)} is half-created (no name, email or sign-in event)`);
  }
  const total = Number((await query(access, 'select count(*) as n from users'))[0]?.n ?? 0);
  return {
    name: 'no user half-created or duplicated',
    broken,
    figures: { users: total },
  };
}

/** No pending sign-in kept past its lifetime once the sweep has run. */
export async function noStalePending(access: StoreAccess, now: number): Promise<InvariantResult> {
  const broken: string[] = [];
  const stale = Number(
    (
      await query(access, 'select count(*) as n from pending_sign_ins where expires_at < $1', [now])
    )[0]?.n ?? 0,
  );
  if (stale > 0) broken.push(`${stale} pending sign-ins in the database are past their lifetime`);
  let redisPending = 0;
  if (access.redisUrl !== undefined) {
    await withRedis(access.redisUrl, (redis) =>
      forEachKey(redis, `${access.redisPrefix}pending:*`, async (key) => {
        redisPending += 1;
        if ((await redis.pttl(key)) === -1) broken.push(`Redis key ${key} never expires`);
      }),
    );
    if (redisPending > 0)
      broken.push(`${redisPending} pending sign-ins in Redis outlived their lifetime`);
  }
  return {
    name: 'no pending sign-in left past its lifetime (after the sweep)',
    broken,
    figures: { staleInDatabase: stale, pendingInRedis: redisPending },
  };
}

/** Every signed-out cookie is still refused at the end; every live one still accepted. */
export function signOutsHold(
  held: readonly HeldSession[],
  endStates: ReadonlyMap<HeldSession, 'accepted' | 'refused'>,
  duringRun: readonly string[],
): InvariantResult {
  const broken = [...duringRun];
  let signedOut = 0;
  let live = 0;
  for (const session of held) {
    const end = endStates.get(session);
    if (session.state === 'signed_out') {
      signedOut += 1;
      if (end !== 'refused')
        broken.push(`a signed-out session of ${session.userId} is accepted at the end`);
    }
    if (session.state === 'live') {
      live += 1;
      if (end !== 'accepted')
        broken.push(`a live session of ${session.userId} is refused at the end`);
    }
  }
  return {
    name: 'a sign-out is never undone, and a live session never lost',
    broken: broken.slice(0, 50),
    figures: { signedOut, live, brokenCount: broken.length },
  };
}

/**
 * Nothing secret in any log line: the planted canaries (the entries' app
 * secret, the codes and tokens the OAuth2 server issues) and every session
 * cookie and API token the run knows.
 */
export async function logsClean(
  logFiles: readonly string[],
  canaryPrefixes: readonly string[],
  secrets: ReadonlySet<string>,
): Promise<InvariantResult> {
  const broken: string[] = [];
  let lines = 0;
  for (const file of logFiles) {
    const reader = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of reader) {
      lines += 1;
      const canary = canaryPrefixes.find((prefix) => line.includes(prefix));
      const secret = (line.match(/[A-Za-z0-9_-]{16,}/g) ?? []).find((word) => secrets.has(word));
      if (canary !== undefined || secret !== undefined) {
        if (broken.length < 20) broken.push(`${file}: ${line.slice(0, 400)}`);
        else if (broken.length === 20) broken.push('(more lines left out)');
      }
    }
  }
  return {
    name: 'nothing of a secret, code or token in any log',
    broken,
    figures: { linesScanned: lines },
  };
}

/** How the gateway answers each held cookie now, with every service up. */
export async function endStatesOf(
  held: readonly HeldSession[],
  gatewayUrl: string,
  cookieName: string,
): Promise<Map<HeldSession, 'accepted' | 'refused'>> {
  const states = new Map<HeldSession, 'accepted' | 'refused'>();
  for (const session of held) {
    for (let attempt = 0; ; attempt += 1) {
      const response = await fetch(`${gatewayUrl}/_sso/auth`, {
        headers: { cookie: `${cookieName}=${session.cookie}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      if (response.status < 300) states.set(session, 'accepted');
      else if (response.status === 401) states.set(session, 'refused');
      else if (attempt < 5) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        continue;
      } else throw new Error(`/_sso/auth answered ${response.status} after the run`);
      break;
    }
  }
  return states;
}

/** No instance ended but by the schedule's own kill or stop. */
export function noCrashes(crashes: readonly string[]): InvariantResult {
  return {
    name: 'no gateway instance exits by itself',
    broken: [...crashes],
    figures: { crashes: crashes.length },
  };
}

/** How soon after a failover's start a sign-in must succeed again. */
export const signInResumeLimitMs = 30_000;

/**
 * Sign-ins resume after each failover: of the sign-ins started after the
 * failover reached them (its start, or later the start of the first
 * sign-in it refused, so one served before the switch is not counted),
 * the first to succeed ended within `signInResumeLimitMs` of the start.
 * The figure per failover is that time from the start, in milliseconds.
 */
export function signInsResume(log: OutcomeLog): InvariantResult {
  const broken: string[] = [];
  const figures: Record<string, number> = {};
  const signIns = log.outcomes.filter((outcome) => outcome.kind === 'sign_in');
  for (const window of log.windows.filter((candidate) => candidate.failover)) {
    const refused = signIns
      .filter((outcome) => outcome.outcome !== 'ok' && log.explaining(outcome) === window)
      .map((outcome) => outcome.startedAt);
    const reached =
      refused.length === 0 ? window.from : Math.max(window.from, Math.min(...refused));
    let firstEnd = Number.POSITIVE_INFINITY;
    for (const outcome of signIns) {
      if (outcome.outcome !== 'ok' || outcome.startedAt < reached) continue;
      firstEnd = Math.min(firstEnd, outcome.startedAt + outcome.durationMs);
    }
    const took = firstEnd - window.from;
    if (Number.isFinite(took)) figures[`${window.fault}, ms`] = took;
    if (took > signInResumeLimitMs) {
      broken.push(
        Number.isFinite(took)
          ? `${window.fault}: the first sign-in succeeded ${took} ms after its start`
          : `${window.fault}: no sign-in succeeded after its start`,
      );
    }
  }
  return {
    name: `sign-ins resume within ${signInResumeLimitMs / 1000} s of each failover`,
    broken,
    figures,
  };
}
