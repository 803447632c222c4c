/** Which sign-ins ended: one (its session's hash), every one of a user, or of an entry. */
export type EndedSignIns =
  { readonly signInHash: string } | { readonly userRowId: number } | { readonly entryId: string };

/**
 * Why a sign-in ended, one reason per path (docs/design.md#when-a-sign-in-ends):
 * - `user_signed_out`: the user signed out, here or everywhere, or at the
 *   OpenID Provider's end-session endpoint;
 * - `sign_in_replaced`: a new sign-in in the same browser;
 * - `user_locked`: the user locked (disabled), by an administrator or found so;
 * - `ended_by_administrator`: an administrator ended the user's sessions
 *   (or reset the password);
 * - `entry_sessions_ended`: the entry disabled or deleted;
 * - `revalidation_failed`: the entry's provider refused a re-validation;
 * - `provider_logout`: the entry's provider logged the session out, by its
 *   back- or front-channel logout;
 * - `saml_logout`: the entry's SAML identity provider sent a LogoutRequest
 *   for the session (its single logout, SAML Profiles §4.4);
 * - `sign_in_over`: found past its absolute end or idle time, or gone.
 */
export type SignInEndReason =
  | 'user_signed_out'
  | 'sign_in_replaced'
  | 'user_locked'
  | 'ended_by_administrator'
  | 'entry_sessions_ended'
  | 'revalidation_failed'
  | 'provider_logout'
  | 'saml_logout'
  | 'sign_in_over';

/** A gateway sign-in ended; raised once what ended it has been written (committed). */
export interface SignInEnded {
  readonly ended: EndedSignIns;
  readonly reason: SignInEndReason;
  /**
   * Given when the browser is there to load pages (a sign-out): listeners
   * add the front-channel logout pages it should load for what they ended
   * (OpenID Connect Front-Channel Logout 1.0 §2).
   */
  readonly frames?: string[];
}

/** A listener of the ends of sign-ins. */
export type SignInEndListener = (event: SignInEnded) => Promise<void>;

/**
 * The one place a sign-in's end is told, per gateway: every path that ends
 * one raises it, once, and every part of this instance that holds something
 * tied to a sign-in listens (the OpenID Provider's grants and their logout
 * tokens, the open WebSockets). Listeners run in the order they were added,
 * each awaited, so the ending is answered only once they are done; a
 * listener's failure fails the ending's caller. Other instances learn of
 * the end through the session revocations (session-revocations.ts), not
 * through this.
 */
export interface SignInEnds {
  listen(listener: SignInEndListener): void;
  raise(event: SignInEnded): Promise<void>;
}

export function createSignInEnds(): SignInEnds {
  const listeners: SignInEndListener[] = [];
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
 * Holds the ends raised inside a unit of work (Storage.writeTogether) until
 * it has committed: `raise` collects, `release` raises what was collected
 * to `ends`; a unit that fails is never released, so it raises nothing.
 * `reset` starts afresh, for a unit that is run again.
 */
export function signInEndsHeldUntilCommit(ends: SignInEnds): {
  readonly raise: SignInEndListener;
  reset(): void;
  release(): Promise<void>;
} {
  let held: SignInEnded[] = [];
  return {
    raise(event) {
      held.push(event);
      return Promise.resolve();
    },
    reset() {
      held = [];
    },
    async release() {
      const events = held;
      held = [];
      for (const event of events) await ends.raise(event);
    },
  };
}
