import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EntryRegistry } from '../../foundation/entries/entry-registry.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { testBackendName } from '../../test-support/test-backend.js';
import type { Storage } from '../../foundation/storage/types.js';
import type { SessionDeps } from '../../foundation/http/gateway.js';
import {
  createSession,
  endSession,
  resolveSession,
  sessionHash,
  startHostSession,
} from './session-service.js';
import { SessionCache } from '../../foundation/http/session-cache.js';
import type { Revocation, RevocationFeed } from '../../foundation/storage/session-revocations.js';
import { parsedEntry } from '../../core/test-support/entries.js';

const minute = 60_000;

function depsAt(storage: Storage, clock: { now: number }): SessionDeps {
  return {
    sessions: storage.sessions,
    users: storage.users,
    entries: new EntryRegistry(storage.entries),
    clock: () => clock.now,
    random: (size) => randomBytes(size),
    idleMs: 30 * minute,
    lifetimeMs: 120 * minute,
    signInEnded: () => Promise.resolve(),
  };
}

async function newUser(storage: Storage) {
  return (await storage.users.insertIfAbsent({ userId: 'u1', sourceEntryId: 'corp' }, 0)).user;
}

describe('sessions', () => {
  test('ids are 256-bit, stored only as hashes, and replaced at each sign-in', async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 1_000 };
      const deps = depsAt(storage, clock);
      const user = await newUser(storage);
      await storage.entries.create(parsedEntry('corp'), 0);
      const first = await createSession(deps, user, 'corp', undefined);
      assert.match(first, /^[\w-]{43}$/);
      assert.equal(await storage.sessions.get(first), undefined);
      assert.ok(await storage.sessions.get(sessionHash(first)));
      const second = await createSession(deps, user, 'corp', first);
      assert.notEqual(second, first);
      assert.equal(await resolveSession(deps, first), undefined);
      assert.equal((await resolveSession(deps, second))?.user.userId, 'u1');
    });
  });

  test('an idle session ends; activity keeps it alive up to its absolute lifetime', async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = depsAt(storage, clock);
      const user = await newUser(storage);
      const idle = await createSession(deps, user, null, undefined);
      const busy = await createSession(deps, user, null, undefined);
      for (clock.now = 20 * minute; clock.now < 120 * minute; clock.now += 20 * minute) {
        assert.ok(
          await resolveSession(deps, busy),
          `busy session alive at ${clock.now / minute} min`,
        );
      }
      assert.equal(await resolveSession(deps, idle), undefined, 'idle for more than 30 minutes');
      clock.now = 120 * minute;
      assert.equal(await resolveSession(deps, busy), undefined, 'past the absolute lifetime');
    });
  });

  test('with a one-minute idle time, a request every 40 s keeps the session alive; a 61 s gap ends it', async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = { ...depsAt(storage, clock), idleMs: minute };
      const id = await createSession(deps, await newUser(storage), null, undefined);
      for (clock.now = 40_000; clock.now <= 6 * minute; clock.now += 40_000) {
        assert.ok(await resolveSession(deps, id), `alive at ${clock.now / 1000} s`);
      }
      clock.now += 61_000 - 40_000; // 61 s after the last request
      assert.equal(await resolveSession(deps, id), undefined, 'idle for 61 s');
    });
  });

  test("disabling the user ends the user's sessions at their next request", async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = depsAt(storage, clock);
      const user = await newUser(storage);
      const id = await createSession(deps, user, null, undefined);
      await storage.users.setEnabled(user.id, false, 1);
      assert.equal(await resolveSession(deps, id), undefined);
      assert.equal(await storage.sessions.get(sessionHash(id)), undefined);
    });
  });

  test('a session whose entry is disabled or deleted is refused and deleted; local ones go on', async () => {
    await withTestStorage(async (storage) => {
      const deps = depsAt(storage, { now: 0 });
      const user = await newUser(storage);
      await storage.entries.create(parsedEntry('corp'), 0);
      await storage.entries.create(parsedEntry('other'), 0);
      const corp = await createSession(deps, user, 'corp', undefined);
      const other = await createSession(deps, user, 'other', undefined);
      const local = await createSession(deps, user, null, undefined);
      assert.ok(await resolveSession(deps, corp));
      // Written behind the registry's back (an import, another instance):
      // the registry is told through the change notices.
      await storage.entries.update('corp', parsedEntry('corp', { enabled: false }), 1);
      deps.entries.invalidate();
      assert.equal(await resolveSession(deps, corp), undefined);
      assert.equal(await storage.sessions.get(sessionHash(corp)), undefined);
      assert.ok(await resolveSession(deps, other));
      await storage.entries.delete('other');
      deps.entries.invalidate();
      assert.equal(await resolveSession(deps, other), undefined);
      assert.equal(await storage.sessions.get(sessionHash(other)), undefined);
      assert.ok(await resolveSession(deps, local));
    });
  });

  test('sign-out deletes the session; malformed ids are never looked up', async () => {
    await withTestStorage(async (storage) => {
      const deps = depsAt(storage, { now: 0 });
      const id = await createSession(deps, await newUser(storage), null, undefined);
      assert.ok(await endSession(deps, id));
      assert.equal(await resolveSession(deps, id), undefined);
      assert.equal(await resolveSession(deps, "' OR 1=1 --"), undefined);
    });
  });
});

/** A signed-in user's sign-in session and two hosts' sessions handed from it. */
async function signInWithHosts(storage: Storage, deps: SessionDeps) {
  const user = (await storage.users.insertIfAbsent({ userId: 'u1', sourceEntryId: null }, 0)).user;
  const signIn = await createSession(deps, user, null, undefined);
  const record = await storage.sessions.get(sessionHash(signIn));
  assert.ok(record !== undefined);
  const wiki = await startHostSession(deps, record, 'wiki.corp.example');
  const git = await startHostSession(deps, record, 'git.corp.example');
  return { user, signIn, wiki, git };
}

describe("hosts' sessions of one sign-in", () => {
  test('each names the sign-in, has its absolute end, and is valid while it is', async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 1_000 };
      const deps = depsAt(storage, clock);
      const { signIn, wiki } = await signInWithHosts(storage, deps);
      const stored = await storage.sessions.get(sessionHash(wiki));
      assert.equal(stored?.signInHash ?? null, sessionHash(signIn));
      assert.equal(stored?.host, 'wiki.corp.example');
      assert.equal(stored.expiresAt, 1_000 + 120 * minute);
      assert.equal((await resolveSession(deps, wiki))?.user.userId, 'u1');
    });
  });

  test('signing out on one host ends the sign-in and every host', async () => {
    await withTestStorage(async (storage) => {
      const deps = depsAt(storage, { now: 0 });
      const { signIn, wiki, git } = await signInWithHosts(storage, deps);
      assert.ok(await endSession(deps, git));
      for (const id of [signIn, wiki, git]) assert.equal(await resolveSession(deps, id), undefined);
    });
  });

  test("the sign-in's end (back-channel logout, console, expiry) ends the hosts' sessions", async () => {
    await withTestStorage(async (storage) => {
      const deps = depsAt(storage, { now: 0 });
      const { signIn, wiki } = await signInWithHosts(storage, deps);
      await storage.sessions.delete(sessionHash(signIn));
      assert.equal(await resolveSession(deps, wiki), undefined);
      assert.equal(await storage.sessions.get(sessionHash(wiki)), undefined, 'and it is deleted');
    });
  });

  test('a locked user loses every host at once', async () => {
    await withTestStorage(async (storage) => {
      const deps = depsAt(storage, { now: 0 });
      const { user, wiki, git } = await signInWithHosts(storage, deps);
      assert.equal(await storage.sessions.deleteForUser(user.id), 3);
      for (const id of [wiki, git]) assert.equal(await resolveSession(deps, id), undefined);
    });
  });

  test("activity on any host keeps the sign-in from idling out; the sign-in's idle limit holds", async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = depsAt(storage, clock);
      const { signIn, wiki, git } = await signInWithHosts(storage, deps);
      // Busy on the wiki only, for longer than the idle limit.
      for (clock.now = 20 * minute; clock.now <= 60 * minute; clock.now += 20 * minute)
        assert.ok(await resolveSession(deps, wiki), `wiki at ${clock.now / minute} min`);
      assert.ok(await resolveSession(deps, signIn), 'the sign-in itself is kept alive');
      // Then nothing anywhere for longer than the idle limit: all end.
      clock.now += 31 * minute;
      assert.equal(await resolveSession(deps, git), undefined);
      assert.equal(await resolveSession(deps, wiki), undefined);
    });
  });

  test("the expiry sweep keeps an idle host's session while its sign-in lives, and ends it with it", async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = depsAt(storage, clock);
      const { signIn, wiki, git } = await signInWithHosts(storage, deps);
      const sweep = () => storage.sessions.deleteExpired(clock.now, clock.now - deps.idleMs);
      // Busy on the wiki only; git is not used for longer than the idle limit.
      for (clock.now = 20 * minute; clock.now <= 60 * minute; clock.now += 20 * minute) {
        assert.ok(await resolveSession(deps, wiki));
        await sweep();
      }
      const active = await storage.sessions.countActive(clock.now, clock.now - deps.idleMs);
      assert.equal(active, 3, 'every session of the sign-in counts as active');
      assert.ok(await resolveSession(deps, git), "git's session lives by the sign-in's activity");
      // Nothing anywhere for longer than the idle limit: the sweep takes them
      // all (in SQL; Redis drops a session at its absolute end, and the check
      // ends an idle one).
      clock.now += 31 * minute;
      const inRedis = testBackendName().endsWith('+redis');
      assert.equal(await sweep(), inRedis ? 0 : 3);
      for (const id of [signIn, wiki, git]) assert.equal(await resolveSession(deps, id), undefined);
    });
  });

  test("a remembered host's session is forgotten with its sign-in's revocation", async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 0 };
      const deps = depsAt(storage, clock);
      const { signIn, wiki } = await signInWithHosts(storage, deps);
      let listener: (revocation: Revocation) => void = () => undefined;
      const feed: RevocationFeed = {
        listen: (added) => (listener = added),
        catchUp: () => true,
        close: () => Promise.resolve(),
      };
      const cache = new SessionCache({
        revocations: feed,
        clock: () => clock.now,
        idleMs: deps.idleMs,
        touchIntervalMs: 60_000,
      });
      const active = await resolveSession(deps, wiki);
      assert.ok(active !== undefined);
      cache.remember(wiki, active, cache.currentGeneration());
      assert.ok(cache.remembered(wiki));
      listener({ scope: 'session', idHash: sessionHash(signIn) });
      assert.equal(cache.remembered(wiki), undefined);
    });
  });
});
