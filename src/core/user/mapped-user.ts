import type { JsonValue } from '../expression/index.js';

/**
 * The user a third-party response describes, before provisioning. Built key
 * by key from known attributes only, so no response can add a property (an
 * admin flag, a password hash) or give it a prototype. `extra` has a null
 * prototype for the same reason.
 */
export interface MappedUser {
  readonly userId: string;
  readonly userName?: string;
  readonly email?: string;
  readonly mobile?: string;
  readonly department?: string;
  readonly enabled?: boolean;
  /** Attributes of the "empty" case that have no column (docs/design.md#users-and-provisioning). */
  readonly extra: Readonly<Record<string, JsonValue>>;
  /** The groups of the entry's groupMapping; absent when the entry maps none. */
  readonly groups?: readonly string[];
}
