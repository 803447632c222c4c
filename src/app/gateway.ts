import type { RandomSource } from '../core/index.js';
import type { Config } from '../config/load-config.js';
import type { SessionDeps } from '../sessions/session-service.js';
import type { EntryRegistry } from '../entries/entry-registry.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';
import type { Storage } from '../storage/types.js';

/**
 * Everything the routes need, made once at start-up and passed in: no route
 * reads the environment, the wall clock or global randomness directly, so
 * tests build a gateway with their own clock, storage and outbound client.
 */
export interface Gateway {
  readonly config: Config;
  readonly storage: Storage;
  readonly entries: EntryRegistry;
  readonly clock: () => number;
  readonly random: RandomSource;
  readonly send: SendOutbound;
  readonly sessions: SessionDeps;
}
