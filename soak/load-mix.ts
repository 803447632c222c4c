import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket } from 'undici';
import { signOutForm } from '../src/test-support/sign-out.js';
import type { Page } from './browser.js';
import { SoakBrowser, errorCodeOf, requestTimeoutMs } from './browser.js';
import type { CallbacksInFlight } from './callbacks-in-flight.js';
import type { Kind, OutcomeLog } from './outcomes.js';
import { closedWithSession, unseenHandshake } from './outcomes.js';
import type { HeldSessions } from './sessions-held.js';

/**
 * The load: workers that each, in a loop, pick one operation by weight and
 * record what came back. Sign-ins go through the example server with four
 * entry styles; the rest use the sessions those sign-ins made.
 */

export interface LoadWorld {
  readonly publicOrigin: string;
  readonly exampleUrl: string;
  /** A live instance's origin, as a load balancer would pick it. */
  readonly balance: () => string;
  readonly apiToken: string;
  /** The entry ids users sign in with; a user always uses the same one. */
  readonly entryIds: readonly string[];
  /** The entries as provisioned (without their secret), for admin edits. */
  readonly entries: Readonly<Record<string, Record<string, unknown>>>;
  /** Users only the admin API edits (lock, grant admin): never part of the load's sign-ins. */
  readonly editedUsers: readonly string[];
  readonly users: UserPool;
  readonly sessions: HeldSessions;
  readonly log: OutcomeLog;
  /** The sign-in callbacks each instance serves now (the instance kill waits for one). */
  readonly callbacks: CallbacksInFlight;
  readonly sessionCookieName: string;
}

/** The example server's users: each signs in first as a new user, then as a returning one. */
export class UserPool {
  private next = 0;
  readonly signedIn: string[] = [];

  constructor(readonly names: readonly string[]) {}

  /** A user never signed in before, or undefined when the pool is used up. */
  fresh(): string | undefined {
    const name = this.names[this.next];
    if (name !== undefined) this.next += 1;
    return name;
  }

  returning(): string | undefined {
    return this.signedIn[Math.floor(Math.random() * this.signedIn.length)];
  }

  entryOf(name: string, entryIds: readonly string[]): string {
    const index = Number(/\d+$/.exec(name)?.[0] ?? 0);
    return entryIds[index % entryIds.length] ?? '';
  }
}

const weights: readonly (readonly [Kind, number])[] = [
  ['sign_in', 30],
  ['returning', 14],
  ['forward_auth', 20],
  ['proxy_body', 10],
  ['websocket', 10],
  ['sign_out', 8],
  ['admin', 8],
];

function pickKind(): Kind {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = Math.random() * total;
  for (const [kind, weight] of weights) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return 'forward_auth';
}

/** Runs `workers` loops until `until` (epoch ms). */
export async function runLoad(world: LoadWorld, workers: number, until: number): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        await runOne(world, pickKind());
        // A pause keeps the run from starving other work on a small machine.
        await delay(20 + Math.random() * 60);
      }
    }),
  );
}

export async function runOne(world: LoadWorld, kind: Kind): Promise<void> {
  switch (kind) {
    case 'sign_in': {
      const fresh = Math.random() < 0.6 ? world.users.fresh() : undefined;
      const name = fresh ?? world.users.returning() ?? world.users.fresh();
      if (name === undefined) return;
      // Now and then the same new user twice at once, on any instances:
      // the database must end with one row.
      if (fresh !== undefined && Math.random() < 0.15) {
        await Promise.all([signIn(world, name), signIn(world, name)]);
      } else await signIn(world, name);
      return;
    }
    case 'returning':
      return returningVisit(world);
    case 'forward_auth':
      return forwardAuth(world);
    case 'proxy_body':
      return proxiedBody(world);
    case 'websocket':
      return webSocketRoundTrip(world);
    case 'sign_out':
      return signOut(world);
    case 'admin':
      return adminEdit(world);
  }
}

/** Records the outcome of `run`; a thrown error is a network failure or a time-out. */
async function timed(
  world: LoadWorld,
  kind: Kind,
  run: () => Promise<{ outcome: string; status?: number; code?: string; detail?: string }>,
): Promise<void> {
  const startedAt = Date.now();
  try {
    const { outcome, status, code, detail } = await run();
    world.log.record({
      kind,
      outcome,
      status,
      code,
      startedAt,
      durationMs: Date.now() - startedAt,
      ...(detail === undefined ? {} : { detail }),
    });
  } catch (error) {
    world.log.record({
      kind,
      outcome: 'network',
      status: undefined,
      code: undefined,
      startedAt,
      durationMs: Date.now() - startedAt,
      detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
}

/** The first failing answer of the gateway among the hops, or the last answer. */
function verdict(world: LoadWorld, page: Page): { outcome: string; status: number; code?: string } {
  const failed = page.hops.find(
    (hop) => hop.status >= 400 && new URL(hop.url).origin === world.publicOrigin,
  );
  const hop = failed ?? page.hops[page.hops.length - 1];
  const status = hop?.status ?? page.status;
  const code = hop === undefined ? undefined : errorCodeOf(hop.body);
  return { outcome: outcomeOf(status, code), status, ...(code === undefined ? {} : { code }) };
}

/** An outcome's name: the status, and the error code when there is one. */
function outcomeOf(status: number, code: string | undefined): string {
  return code === undefined ? `status_${status}` : `status_${status} ${code}`;
}

export async function signIn(world: LoadWorld, name: string): Promise<void> {
  await timed(world, 'sign_in', async () => {
    const browser = new SoakBrowser(world.publicOrigin, world.balance, world.callbacks);
    const atExample = await browser.submit(`${world.exampleUrl}/login`, {
      username: name,
      password: `${name}-password`,
      continue: '/',
    });
    if (atExample.status !== 200) return { outcome: 'example_login_failed' };
    const entryId = world.users.entryOf(name, world.entryIds);
    const page = await browser.open(
      `${world.publicOrigin}/_sso/login/${entryId}?return_to=/app/landing`,
    );
    const cookie = browser.cookie(world.publicOrigin, world.sessionCookieName);
    if (page.status === 200 && cookie !== undefined && page.body.includes('/app/landing')) {
      world.sessions.add(name, cookie);
      if (!world.users.signedIn.includes(name)) world.users.signedIn.push(name);
      return { outcome: 'ok', status: 200 };
    }
    return verdict(world, page);
  });
}

function withCookie(world: LoadWorld, cookie: string): Record<string, string> {
  return { cookie: `${world.sessionCookieName}=${cookie}` };
}

async function returningVisit(world: LoadWorld): Promise<void> {
  const session = world.sessions.pick('live');
  if (session === undefined) return;
  await timed(world, 'returning', async () => {
    const response = await fetch(`${world.balance()}/app/page-${randomBytes(4).toString('hex')}`, {
      headers: { ...withCookie(world, session.cookie), accept: 'text/html' },
      redirect: 'manual',
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const body = await response.text();
    if (response.status === 200 && body.includes('"url":"/app/page-')) {
      return { outcome: 'ok', status: 200 };
    }
    const code = errorCodeOf(body);
    // Sign-outs race with visits: a session signed out meanwhile is rightly refused.
    const outcome =
      session.state === 'live' && (response.status === 302 || response.status === 401)
        ? 'live_session_refused'
        : outcomeOf(response.status, code);
    return { outcome, status: response.status, ...(code === undefined ? {} : { code }) };
  });
}

async function forwardAuth(world: LoadWorld): Promise<void> {
  // One check in five is of a signed-out cookie, which must stay refused.
  const signedOut = Math.random() < 0.2 ? world.sessions.pick('signed_out') : undefined;
  const session = signedOut ?? world.sessions.pick('live');
  if (session === undefined) return;
  await timed(world, 'forward_auth', async () => {
    const response = await fetch(`${world.balance()}/_sso/auth`, {
      headers: {
        ...withCookie(world, session.cookie),
        'x-forwarded-uri': '/app/checked',
        'x-forwarded-method': 'GET',
      },
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const body = await response.text();
    const code = errorCodeOf(body);
    const status = response.status;
    if (session.state === 'signed_out') {
      if (status >= 200 && status < 300) {
        world.log.violations.push(
          `a signed-out session of ${session.userId} was accepted by /_sso/auth`,
        );
        return { outcome: 'signed_out_accepted', status };
      }
      return {
        outcome: status === 401 ? 'ok' : outcomeOf(status, code),
        status,
        ...(code === undefined ? {} : { code }),
      };
    }
    if (status >= 200 && status < 300) return { outcome: 'ok', status };
    const outcome =
      status === 401 && session.state === 'live' ? 'live_session_refused' : outcomeOf(status, code);
    return { outcome, status, ...(code === undefined ? {} : { code }) };
  });
}

async function proxiedBody(world: LoadWorld): Promise<void> {
  const session = world.sessions.pick('live');
  if (session === undefined) return;
  await timed(world, 'proxy_body', async () => {
    const body = randomBytes(1024 + Math.floor(Math.random() * 255 * 1024));
    const response = await fetch(`${world.balance()}/app/upload`, {
      method: 'POST',
      headers: { ...withCookie(world, session.cookie), 'content-type': 'application/octet-stream' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await response.text();
    if (response.status !== 200) {
      const code = errorCodeOf(text);
      return {
        outcome: outcomeOf(response.status, code),
        status: response.status,
        ...(code === undefined ? {} : { code }),
      };
    }
    const seen = JSON.parse(text) as { bodyBytes?: number; bodySha256?: string };
    const expected = createHash('sha256').update(body).digest('hex');
    if (seen.bodyBytes !== body.length || seen.bodySha256 !== expected) {
      world.log.violations.push('a proxied body reached the upstream changed');
      return { outcome: 'body_changed', status: 200 };
    }
    return { outcome: 'ok', status: 200 };
  });
}

async function webSocketRoundTrip(world: LoadWorld): Promise<void> {
  const session = world.sessions.pick('live');
  if (session === undefined) return;
  await timed(world, 'websocket', async () => {
    const instance = world.balance();
    const socket = new WebSocket(`${instance.replace('http', 'ws')}/app/socket`, {
      headers: withCookie(world, session.cookie),
    });
    const message = `soak-${randomBytes(6).toString('hex')}`;
    const handshake = { opened: false };
    try {
      const reply = await new Promise<string | undefined>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error('no echo in time'));
        }, requestTimeoutMs);
        socket.addEventListener('open', () => {
          handshake.opened = true;
          socket.send(message);
        });
        socket.addEventListener('message', (event) => {
          clearTimeout(timer);
          resolve(String(event.data));
        });
        socket.addEventListener('error', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      if (reply === undefined) {
        // A sign-out of the load's own that raced with this round trip ends
        // the session, and the gateway closes its sockets with it
        // (docs/proxy.md): the promise kept, not a failure.
        if (handshake.opened && session.state !== 'live') return { outcome: closedWithSession };
        if (handshake.opened) throw new Error('the WebSocket failed after its handshake');
        // The browser API hides the handshake's answer; the same request
        // without the upgrade tells why (a session signed out meanwhile: 401;
        // a store restarting: 503).
        const probe = await fetch(`${instance}/app/socket`, {
          headers: withCookie(world, session.cookie),
          redirect: 'manual',
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
        const body = await probe.text();
        // Refused a moment ago, answered now: what refused it has just ended.
        if (probe.status === 200) return { outcome: unseenHandshake };
        const code = errorCodeOf(body);
        return {
          outcome: `handshake_${probe.status}`,
          status: probe.status,
          ...(code === undefined ? {} : { code }),
        };
      }
      if (reply !== `echo: ${message}`) {
        world.log.violations.push('a WebSocket message came back changed');
        return { outcome: 'message_changed' };
      }
      return { outcome: 'ok', status: 101 };
    } finally {
      socket.close();
    }
  });
}

async function signOut(world: LoadWorld): Promise<void> {
  const session = world.sessions.pick('live');
  if (session === undefined) return;
  // Taken out of the live ones first: visits that race with the sign-out
  // must not count a refusal against it.
  session.state = 'uncertain';
  await timed(world, 'sign_out', async () => {
    const browser = new SoakBrowser(world.publicOrigin, world.balance, world.callbacks);
    browser.setCookie(world.publicOrigin, world.sessionCookieName, session.cookie);
    const confirm = await browser.open(`${world.publicOrigin}/_sso/logout`, 0);
    if (confirm.status !== 200) return verdict(world, confirm);
    const { action, csrf } = signOutForm(confirm.body);
    const done = await browser.submit(`${world.publicOrigin}${action}`, { csrf });
    const last = done.hops[done.hops.length - 1];
    if (done.status !== 200 || last === undefined || !last.url.endsWith('/_sso/signed-out')) {
      return verdict(world, done);
    }
    session.state = 'signed_out';
    const check = await fetch(`${world.balance()}/_sso/auth`, {
      headers: withCookie(world, session.cookie),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    await check.arrayBuffer();
    if (check.status >= 200 && check.status < 300) {
      world.log.violations.push(`a session of ${session.userId} still worked after its sign-out`);
      return { outcome: 'still_signed_in', status: check.status };
    }
    return { outcome: 'ok', status: 200 };
  });
}

async function adminCall(
  world: LoadWorld,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${world.balance()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${world.apiToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  return { status: response.status, text: await response.text() };
}

async function adminEdit(world: LoadWorld): Promise<void> {
  await timed(world, 'admin', async () => {
    let answer: { status: number; text: string };
    if (Math.random() < 0.5) {
      // Renames an entry users sign in with: later sign-ins must still work.
      const id = world.entryIds[Math.floor(Math.random() * world.entryIds.length)] ?? '';
      const entry = world.entries[id] ?? {};
      answer = await adminCall(world, 'PUT', `/_sso/api/entries/${id}`, {
        ...entry,
        name: `${String(entry.name)} (${randomBytes(2).toString('hex')})`,
      });
    } else {
      const name = world.editedUsers[Math.floor(Math.random() * world.editedUsers.length)] ?? '';
      const found = await adminCall(world, 'GET', `/_sso/api/users?search=${name}&limit=5`);
      if (found.status !== 200) {
        answer = found;
      } else {
        const users = (JSON.parse(found.text) as { users: { id: number; userId: string }[] }).users;
        const user = users.find((candidate) => candidate.userId === name);
        if (user === undefined) return { outcome: 'user_not_found', status: 200 };
        const actions = ['grant-admin', 'revoke-admin', 'lock', 'unlock', 'end-sessions'];
        const action = actions[Math.floor(Math.random() * actions.length)] ?? 'unlock';
        answer = await adminCall(world, 'POST', `/_sso/api/users/${user.id}/${action}`);
      }
    }
    const code = errorCodeOf(answer.text);
    return {
      outcome: answer.status >= 200 && answer.status < 300 ? 'ok' : outcomeOf(answer.status, code),
      status: answer.status,
      ...(code === undefined ? {} : { code }),
    };
  });
}
