import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../foundation/storage/types.js';
import type { AuditRetention } from '../foundation/config/load-config.js';
import { pruneAuditLog } from './audit-retention.js';

/** How often the sweep runs; the SQL tables hold what is over at most this long. */
const sweepIntervalMs = 5 * 60_000;

interface ExpirySweepOptions {
  readonly storage: Storage;
  readonly clock: () => number;
  /** A session idle this long is over (SSOGATE_SESSION_IDLE_MINUTES). */
  readonly idleMs: number;
  readonly log: FastifyBaseLogger;
  readonly intervalMs?: number;
  /** Audit events past this go too, in small batches; absent: kept. */
  readonly auditRetention?: AuditRetention;
  /**
   * Ends the OpenID Provider's grants of sign-ins that are over, and tells
   * their clients (openid-provider/sign-in-grants.ts); resolves how many
   * sign-ins were found over.
   */
  readonly endOverGrants?: () => Promise<number>;
}

/** The OpenID Provider's part of a sweep; a failure is logged, and the next sweep tries again. */
async function endOverGrants(options: ExpirySweepOptions, log: FastifyBaseLogger): Promise<void> {
  try {
    const ended = (await options.endOverGrants?.()) ?? 0;
    if (ended > 0) log.info({ signInsEnded: ended }, 'ended the grants of sign-ins that are over');
  } catch (error) {
    log.warn(
      { err: error },
      'ending the grants of sign-ins over failed; the next sweep tries again',
    );
  }
}

interface ExpirySweep {
  /** The sweep under way, or the last one; it never rejects. */
  settled(): Promise<void>;
  /** No further sweeps; resolves once one under way has finished. */
  stop(): Promise<void>;
}

/**
 * Deletes expired sessions and pending sign-ins from the database, at start
 * and then every `intervalMs`, with the other short-lived rows
 * (Storage.sweepExpired): test sign-ins, whose sealed drafts hold app
 * secrets, go a day after their trace expired. The gateway checks expiry on
 * every read, so this is about storage: without it the tables only ever grow. The timer is
 * unref'd (it never keeps the process alive); a failed sweep is logged and
 * the next one tries again. Instances sharing PostgreSQL take turns
 * (Storage.sweepExpired, Storage.pruneAudit). With `auditRetention`, each
 * sweep also prunes the audit log (audit-retention.ts). The OpenID
 * Provider's grants of sign-ins over end at each sweep too, in the instance
 * whose turn it was, which sends their logout tokens.
 */
export function startExpirySweep(options: ExpirySweepOptions): ExpirySweep {
  const { storage, clock, idleMs, log } = options;
  let current: Promise<void> = Promise.resolve();
  let stopped = false;

  const sweep = (): void => {
    if (stopped) return;
    // One at a time: a slow sweep is not overtaken by the next tick.
    current = current.then(async () => {
      if (stopped) return;
      const now = clock();
      let swept = false;
      try {
        const counts = await storage.sweepExpired(now, now - idleMs);
        swept = counts !== undefined;
        if (counts !== undefined && counts.sessions + counts.pendingSignIns > 0) {
          log.info({ swept: counts }, 'deleted expired sessions and pending sign-ins');
        }
        if (counts?.sessionsRecovered !== undefined && counts.sessionsRecovered > 0) {
          log.warn(
            { sessionsRecovered: counts.sessionsRecovered },
            'wrote the sessions of sign-ins that committed but did not write them to Redis',
          );
        }
      } catch (error) {
        log.warn({ err: error }, 'the expiry sweep failed; the next one tries again');
      }
      // Only the instance whose turn it was: one reads the sign-ins, one sends.
      if (swept) await endOverGrants(options, log);
      if (options.auditRetention === undefined) return;
      try {
        const pruned = await pruneAuditLog(storage, options.auditRetention, now, {
          stopped: () => stopped,
        });
        if (pruned !== undefined && pruned > 0) {
          log.info({ pruned }, 'deleted audit events past retention');
        }
      } catch (error) {
        log.warn({ err: error }, 'pruning the audit log failed; the next sweep tries again');
      }
    });
  };

  sweep();
  const timer = setInterval(sweep, options.intervalMs ?? sweepIntervalMs);
  timer.unref();
  return {
    settled: () => current,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
