import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EntryRegistry } from '../entries/entry-registry.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import type { Storage } from '../storage/types.js';
import type { SessionDeps } from '../http/gateway.js';
import { createSession, endSession, resolveSession, sessionHash } from './session-service.js';
import { parsedEntry } from '../core/test-support/entries.js';

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
