import type { SessionStore, UserStore } from './types.js';
import type { AnnouncingRevocationFeed, Revocation } from './session-revocations.js';

/** What the stores below need of a feed. */
type Announcer = Pick<AnnouncingRevocationFeed, 'announce'>;

/**
 * The session store with every ending announced to the other instances
 * (redis/redis-revocation-feed.ts, postgres/postgres-revocation-feed.ts), after
 * the write and before the caller goes on:
 * a sign-out is answered once every instance has forgotten the session.
 */
export function announcingSessionStore(sessions: SessionStore, feed: Announcer): SessionStore {
  return {
    ...sessions,
    async delete(idHash) {
      await sessions.delete(idHash);
      await feed.announce({ scope: 'session', idHash });
    },
    async recordFactor(signIn, factor) {
      await sessions.recordFactor(signIn, factor);
      // Its host sessions change too, whose hashes this does not know.
      await feed.announce({ scope: 'user', userRowId: signIn.userRowId });
    },
    async deleteForUser(userRowId) {
      const ended = await sessions.deleteForUser(userRowId);
      await feed.announce({ scope: 'user', userRowId });
      return ended;
    },
    async deleteForEntry(entryId) {
      const ended = await sessions.deleteForEntry(entryId);
      await feed.announce({ scope: 'entry', entryId });
      return ended;
    },
  };
}

/**
 * The user store with every change a session check reads (enabled, the
 * admin flag, the attributes of the identity headers) announced to the other
 * instances, which forget that user's sessions. With Redis the sessions live
 * there while the user is in the SQL database, so no database log could
 * carry it; on PostgreSQL alone the same announcements travel by NOTIFY.
 */
export function announcingUserStore(users: UserStore, feed: Announcer): UserStore {
  const announce = (userRowId: number) => feed.announce({ scope: 'user', userRowId });
  return {
    ...users,
    async updateAttributes(id, attributes, at) {
      const updated = await users.updateAttributes(id, attributes, at);
      await announce(id);
      return updated;
    },
    async setEnabled(id, enabled, at) {
      const changed = await users.setEnabled(id, enabled, at);
      if (changed) await announce(id);
      return changed;
    },
    async setAdmin(id, isAdmin, at) {
      const changed = await users.setAdmin(id, isAdmin, at);
      if (changed) await announce(id);
      return changed;
    },
    async removeAdminAccess(id, change, at) {
      const outcome = await users.removeAdminAccess(id, change, at);
      if (outcome === 'done') await announce(id);
      return outcome;
    },
  };
}

/**
 * Announcements held back until a transaction commits: `later` is the
 * announcer its stores are given, and `send` announces what they queued, in
 * order, once the commit has succeeded. Told before the commit, another
 * instance could read the rows as they were and remember them again; a
 * transaction that fails announces nothing.
 */
export function heldAnnouncements(feed: Announcer): {
  readonly later: Announcer;
  send(): Promise<void>;
} {
  const due: Revocation[] = [];
  return {
    later: {
      announce(revocation) {
        due.push(revocation);
        return Promise.resolve();
      },
    },
    async send() {
      for (const revocation of due) await feed.announce(revocation);
    },
  };
}
