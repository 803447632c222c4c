import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../storage/types.js';
import { sessionLiveness } from './session-liveness.js';

const minute = 60_000;
const now = 1_000 * minute;
const idleMs = 30 * minute;

function session(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    idHash: 'h',
    userRowId: 1,
    entryId: null,
    createdAt: now - 10 * minute,
    lastSeenAt: now - minute,
    expiresAt: now + 60 * minute,
    ...overrides,
  };
}

test('a session is live within its limits, with its user and entry enabled', () => {
  assert.equal(sessionLiveness(session(), session(), now, idleMs, true, true), 'live');
});

test('its limits, then its user, then its entry: the first that fails names the end', () => {
  const expired = session({ expiresAt: now });
  const idle = session({ lastSeenAt: now - idleMs });
  assert.equal(sessionLiveness(expired, session(), now, idleMs, false, false), 'sign_in_over');
  // A host's session lives by its sign-in's limits as well as its own.
  assert.equal(sessionLiveness(session(), expired, now, idleMs, true, true), 'sign_in_over');
  assert.equal(sessionLiveness(session(), idle, now, idleMs, true, true), 'sign_in_over');
  assert.equal(sessionLiveness(session(), session(), now, idleMs, false, false), 'user_locked');
  assert.equal(
    sessionLiveness(session(), session(), now, idleMs, true, false),
    'entry_sessions_ended',
  );
});
