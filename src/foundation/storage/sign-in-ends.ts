import type { SessionStore, Storage } from './types.js';

/** Which sign-ins ended: one (its session's hash), every one of a user, or of an entry. */
type EndedSignIns =
  { readonly signInHash: string } | { readonly userRowId: number } | { readonly entryId: string };

/**
 * Why: a session ended (a sign-out, a lock of one session, a back-channel
 * logout from the upstream provider, a refused re-validation, the provider's
 * own RP-initiated logout); replaced by a new sign-in in the same browser;
 * found over (expired, idle, gone); every session of a user ended (sign-out
 * everywhere, a lock, an administrator); every session of an entry.
 */
export type SignInEndReason =
  | 'sign_in_ended'
  | 'sign_in_replaced'
  | 'sign_in_over'
  | 'user_signed_out'
  | 'entry_sessions_ended';

/** A gateway sign-in ended; raised once what ended it has been written (committed). */
export interface SignInEnded {
  readonly ended: EndedSignIns;
  readonly reason: SignInEndReason;
}

/**
 * The one place a sign-in's end is told: every path that ends one raises
 * it, and every part that holds something tied to a sign-in listens (the
 * OpenID Provider's grants and their logout tokens first). Listeners run in
 * the order they were added, each awaited, so the ending is answered only
 * once they are done; a listener's failure fails the ending's caller.
 */
export interface SignInEnds {
  listen(listener: (event: SignInEnded) => Promise<void>): void;
  raise(event: SignInEnded): Promise<void>;
}

export function createSignInEnds(): SignInEnds {
  const listeners: ((event: SignInEnded) => Promise<void>)[] = [];
  return {
    listen(listener) {
      listeners.push(listener);
    },
    async raise(event) {
      for (const listener of listeners) await listener(event);
    },
  };
}

/**
 * The session store with every ending raised after its write: `deleted` is
 * the reason of a single session's deletion (a new sign-in's transaction
 * deletes only the session it replaces).
 */
function raisingSessionStore(
  sessions: SessionStore,
  raise: (event: SignInEnded) => Promise<void>,
  deleted: SignInEndReason,
): SessionStore {
  return {
    ...sessions,
    async delete(idHash) {
      await sessions.delete(idHash);
      await raise({ ended: { signInHash: idHash }, reason: deleted });
    },
    async deleteForUser(userRowId) {
      const ended = await sessions.deleteForUser(userRowId);
      await raise({ ended: { userRowId }, reason: 'user_signed_out' });
      return ended;
    },
    async deleteForEntry(entryId) {
      const ended = await sessions.deleteForEntry(entryId);
      await raise({ ended: { entryId }, reason: 'entry_sessions_ended' });
      return ended;
    },
  };
}

/**
 * The storage with every ending of sessions raised to `ends`: at once for
 * the sessions store, and for the sessions a unit of work (writeTogether)
 * deletes, once it has committed; a unit that fails raises nothing.
 */
export function storageRaisingSignInEnds<S extends Storage>(storage: S, ends: SignInEnds): S {
  return {
    ...storage,
    sessions: raisingSessionStore(storage.sessions, (event) => ends.raise(event), 'sign_in_ended'),
    async writeTogether(work) {
      let held: SignInEnded[] = [];
      const result = await storage.writeTogether((stores) => {
        // Afresh for each run of `work`, in case a run is tried again.
        held = [];
        const hold = (event: SignInEnded) => {
          held.push(event);
          return Promise.resolve();
        };
        return work({
          ...stores,
          sessions: raisingSessionStore(stores.sessions, hold, 'sign_in_replaced'),
        });
      });
      for (const event of held) await ends.raise(event);
      return result;
    },
  };
}
