import { setTimeout as delay } from 'node:timers/promises';
import type { ExampleServer, ResponseFault } from '../src/example-server/index.js';
import type { CallbacksInFlight } from './callbacks-in-flight.js';
import type { FaultWindow, OutcomeLog } from './outcomes.js';
import { outageCodes, providerCodes } from './outcomes.js';
import { signInResumeLimitMs } from './invariants.js';
import type { GatewayInstance, OwnPostgres, OwnRedis } from './processes.js';
import type { SentinelGroup } from '../src/foundation/storage/redis/test-support/sentinel-group.js';
import type { ReplicatedPostgres } from '../src/test-support/postgres-replication.js';

/**
 * The faults under the load, each at a fixed share of the run so a short
 * run has them all: the OAuth2 server slow, failing, answering garbage and
 * huge bodies; Redis restarted (or, behind Sentinels, failed over) and
 * PostgreSQL restarted (or, with a replica, its primary lost and the replica
 * promoted); one gateway instance killed
 * in the middle of sign-ins and started again. Each fault opens a window
 * in the outcome log that says which coded 5xx it explains.
 */

export interface FaultTargets {
  readonly example: ExampleServer;
  readonly instances: readonly GatewayInstance[];
  readonly postgres: OwnPostgres | undefined;
  readonly redis: OwnRedis | undefined;
  /** Redis behind Sentinels instead of `redis`: failed over rather than restarted. */
  readonly sentinels: SentinelGroup | undefined;
  /** A primary and its replica instead of `postgres`: the primary lost, the replica promoted. */
  readonly postgresPair: ReplicatedPostgres | undefined;
  readonly log: OutcomeLog;
  /** The sign-in callbacks each instance serves now. */
  readonly callbacks: CallbacksInFlight;
  /** Written to the report: what ran when, and what was skipped. */
  readonly events: string[];
}

/** Calls to the OAuth2 server a sign-in makes; faults are queued faster than they are used up. */
const endpoints = ['token', 'userinfo'] as const;

/** A canary that looks like a token, inside answers the gateway cannot use. */
export const canaryIssuedPrefix = 'SOAKCANARYISSUED';

/** Over the 1 MiB the gateway reads from a third-party answer; one string, however many faults. */
const hugeBody = `{"access_token":"${canaryIssuedPrefix}${'x'.repeat(1_200_000)}"}`;

function providerFaults(kind: string): () => ResponseFault {
  switch (kind) {
    case 'slow':
      return () => ({ delayMs: 1500 + Math.floor(Math.random() * 3000) });
    case 'failing':
      return () => ({ status: 500, body: '{"error":"server_error"}' });
    case 'garbage':
      return () => ({
        body: `<html>broken access_token=${canaryIssuedPrefix}garbage${Math.floor(Math.random() * 1e9)} "`,
      });
    default:
      return () => ({ body: hugeBody });
  }
}

/** Keeps the endpoints failing for `ms`: a queued fault is consumed per request. */
async function providerWindow(targets: FaultTargets, kind: string, ms: number): Promise<void> {
  const make = providerFaults(kind);
  const window = targets.log.open(`provider ${kind}`, providerCodes, {
    // The slowest sign-in that met the fault ends within the entry's time-out.
    graceMs: 15_000,
  });
  targets.events.push(`${new Date().toISOString()} provider ${kind} for ${ms} ms`);
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const endpoint of endpoints)
      for (let i = 0; i < 3; i += 1) targets.example.failNext(endpoint, make());
    await delay(250);
  }
  targets.example.clearFaults();
  targets.log.close(window);
}

async function restartRedis(targets: FaultTargets): Promise<void> {
  if (targets.redis === undefined) return;
  const window = targets.log.open('Redis restarted', outageCodes, { graceMs: 15_000 });
  targets.events.push(`${new Date().toISOString()} Redis restart`);
  await targets.redis.restart(3000);
  targets.log.close(window);
  targets.events.push(`${new Date().toISOString()} Redis back`);
}

/**
 * Holds the schedule until a sign-in started after the failover's end has
 * succeeded (at most the bound the end check allows): a storage fault begun
 * before that would stretch this failover's resume time with its own.
 */
async function signInsBack(log: OutcomeLog, window: FaultWindow): Promise<void> {
  const ended = window.to ?? Date.now();
  const until = ended + signInResumeLimitMs;
  // Outcomes are recorded as they end: those before this index ended before.
  let next = log.outcomes.length;
  while (Date.now() < until) {
    for (; next < log.outcomes.length; next += 1) {
      const outcome = log.outcomes[next];
      if (outcome?.kind === 'sign_in' && outcome.outcome === 'ok' && outcome.startedAt >= ended)
        return;
    }
    await delay(250);
  }
}

/**
 * The Sentinels promote the replica (SENTINEL FAILOVER) under the load: the
 * instances answer 503 until each has found the new master.
 */
async function failOverRedis(targets: FaultTargets, sentinels: SentinelGroup): Promise<void> {
  const window = targets.log.open('Redis failed over', outageCodes, {
    graceMs: 15_000,
    failover: true,
  });
  targets.events.push(`${new Date().toISOString()} Redis failover`);
  const { oldMaster, newMaster } = await sentinels.failOver();
  targets.log.close(window);
  targets.events.push(
    `${new Date().toISOString()} Redis failed over from port ${oldMaster} to ${newMaster}`,
  );
  await signInsBack(targets.log, window);
}

async function restartPostgres(targets: FaultTargets): Promise<void> {
  if (targets.postgres === undefined) return;
  const window = targets.log.open('PostgreSQL restarted', outageCodes, { graceMs: 15_000 });
  targets.events.push(`${new Date().toISOString()} PostgreSQL restart`);
  await targets.postgres.restart(3000);
  targets.log.close(window);
  targets.events.push(`${new Date().toISOString()} PostgreSQL back`);
}

/**
 * Between the primary's loss and the promotion: the time a fail-over tool
 * takes to call the primary lost, in which no server takes writes.
 */
const promotionDelayMs = 2000;

/**
 * The primary stopped in immediate mode (as a crash: connections cut, no
 * shutdown checkpoint) and, after `promotionDelayMs`, the replica promoted,
 * while the load runs on. The instances answer 503 until they find the new
 * primary (docs/operations.md#a-replicated-postgresql). The old primary
 * stays down: it would need a rewind to serve again.
 */
async function promoteReplica(targets: FaultTargets, pair: ReplicatedPostgres): Promise<void> {
  const window = targets.log.open('PostgreSQL primary lost, replica promoted', outageCodes, {
    graceMs: 15_000,
    failover: true,
  });
  targets.events.push(
    `${new Date().toISOString()} PostgreSQL primary (port ${pair.primary.port}) stopped in immediate mode`,
  );
  await pair.stopImmediately(pair.primary);
  await delay(promotionDelayMs);
  await pair.promote(pair.replica);
  targets.log.close(window);
  targets.events.push(
    `${new Date().toISOString()} PostgreSQL replica (port ${pair.replica.port}) promoted; the old primary stays down`,
  );
  await signInsBack(targets.log, window);
}

/** How long the token and user-info answers are held while an instance is to be killed. */
const killSlowdownMs = 2000;
/** A callback this old, with those answers held, is waiting for the OAuth2 server. */
const waitingForProviderMs = 300;
/** The kill does not wait longer than this for a callback on the victim. */
const callbackWaitMs = 20_000;

/**
 * Resolves the victim's callbacks once one of them is waiting for the
 * OAuth2 server's slowed answer, or, after `callbackWaitMs`, whatever it is
 * serving then (perhaps nothing).
 */
async function callbacksMidWay(targets: FaultTargets, origin: string) {
  const until = Date.now() + callbackWaitMs;
  for (let poll = 0; ; poll += 1) {
    const flights = targets.callbacks.at(origin);
    const waiting = flights.some((flight) => Date.now() - flight.startedAt >= waitingForProviderMs);
    if (waiting || Date.now() >= until) return flights;
    // Queued faults are used up by every instance's sign-ins: kept topped up.
    if (poll % 5 === 0)
      for (const endpoint of endpoints)
        for (let i = 0; i < 2; i += 1)
          targets.example.failNext(endpoint, { delayMs: killSlowdownMs });
    await delay(50);
  }
}

/**
 * SIGKILL in the middle of a sign-in: the token and user-info answers are
 * slowed, and the kill waits (bounded) until a callback on the victim is
 * waiting for one of them. The report says how many callbacks were in
 * flight there and how many of them got no answer.
 */
async function killInstance(targets: FaultTargets): Promise<void> {
  const victim = targets.instances[targets.instances.length - 1];
  if (victim === undefined) return;
  const window = targets.log.open(`${victim.name} killed`, outageCodes, {
    graceMs: 10_000,
    refusals: true,
  });
  const inFlight = await callbacksMidWay(targets, victim.url);
  targets.events.push(
    `${new Date().toISOString()} SIGKILL ${victim.name} with ${inFlight.length} sign-in callback(s) in flight there`,
  );
  await victim.kill();
  await delay(2000);
  await victim.start();
  targets.example.clearFaults();
  targets.log.close(window);
  targets.events.push(`${new Date().toISOString()} ${victim.name} started again`);
  // A cut connection fails its request at once; one answered before the kill already ended.
  const cut = inFlight.filter((flight) => flight.ended === 'cut').length;
  const answered = inFlight.filter((flight) => flight.ended === 'answered').length;
  targets.events.push(
    `${victim.name} kill: ${cut} of ${inFlight.length} sign-in callback(s) in flight cut without an answer, ${answered} answered`,
  );
}

/** Runs the schedule over a run of `seconds` that began at `startedAt`. */
export async function runFaultSchedule(
  targets: FaultTargets,
  startedAt: number,
  seconds: number,
): Promise<void> {
  const at = (share: number) => startedAt + share * seconds * 1000;
  const windowMs = Math.max(3000, seconds * 1000 * 0.05);
  const steps: [number, () => Promise<void>][] = [
    [0.1, () => providerWindow(targets, 'slow', windowMs)],
    [0.2, () => providerWindow(targets, 'failing', windowMs)],
    [0.3, () => providerWindow(targets, 'garbage', windowMs)],
    [0.4, () => providerWindow(targets, 'huge', windowMs)],
    [
      0.5,
      () =>
        targets.sentinels === undefined
          ? restartRedis(targets)
          : failOverRedis(targets, targets.sentinels),
    ],
    [
      0.62,
      () =>
        targets.postgresPair === undefined
          ? restartPostgres(targets)
          : promoteReplica(targets, targets.postgresPair),
    ],
    [0.75, () => killInstance(targets)],
  ];
  for (const [share, step] of steps) {
    const wait = at(share) - Date.now();
    if (wait > 0) await delay(wait);
    await step();
  }
}
