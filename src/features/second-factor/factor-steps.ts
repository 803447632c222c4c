import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { recoveryCodesPage } from '../../foundation/pages/index.js';
import type { RequestSession } from '../sessions/request-session.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import type { Gateway } from './factor-gateway.js';
import { checkFactorLimit, recordFactorFailure, recordFactorSuccess } from './factor-limit.js';
import { factorHref } from './factor-paths.js';
import { base32Encode } from './totp.js';

/**
 * The steps every kind of factor takes alike, one-time codes (routes.ts)
 * and passkeys (passkey-routes.ts): the form's session, the limit on wrong
 * answers, a refused or accepted factor, and the end of an enrolment. They
 * live apart from both route modules so that neither imports the other's
 * pages for them.
 */

/** Enrolment needs a first factor this fresh: a sign-in of the last ten minutes. */
export const freshSignInMs = 10 * 60_000;
/** Adding to factors one holds, or removing the last, needs a second factor this recent. */
const recentFactorMs = 15 * 60_000;
const recoveryCodeCount = 10;

export type Form = Readonly<Record<string, unknown>>;
type FormRequest = FastifyRequest<{ Body: Form | undefined }>;

/** Whether the session's sign-in holds a second factor of the last 15 minutes. */
export function factorRecent(gateway: Gateway, active: RequestSession): boolean {
  const given = active.session.factor;
  return given !== undefined && gateway.clock() - given.at <= recentFactorMs;
}

/**
 * Whether a first factor must wait for a fresh sign-in: the session is
 * older than ten minutes, and is a sign-in's own (not one that carries
 * its sign-in's `signInHash`).
 */
export function signInTooOldToEnrol(gateway: Gateway, active: RequestSession): boolean {
  return (
    gateway.clock() - active.session.createdAt > freshSignInMs &&
    active.session.signInHash === undefined
  );
}

/** The name the user gave a new factor, trimmed to 64 characters, or `fallback`. */
export function factorName(given: unknown, fallback: string): string {
  return typeof given === 'string' && given.trim() !== '' ? given.trim().slice(0, 64) : fallback;
}

/** The limit on wrong answers (factor-limit.ts) counts in the gateway's store, by its clock. */
function limitDeps(gateway: Gateway) {
  return { store: gateway.storage.failureCounts, clock: gateway.clock };
}

/**
 * Audits an event of the user's second factor, and counts it
 * (telemetry.secondFactor): a success under its action, with the action in
 * the audit's detail; a refusal under 'verify', by its code.
 */
export async function recordFactorEvent(
  gateway: Gateway,
  request: FastifyRequest,
  active: RequestSession,
  event:
    | {
        readonly action: 'verify' | 'enrol' | 'remove';
        readonly detail: Readonly<Record<string, string>>;
      }
    | { readonly code: string; readonly reference?: string },
): Promise<void> {
  const userId = active.user.userId;
  if ('code' in event) {
    await audit(gateway, request, { kind: 'second_factor', outcome: 'failure', userId, ...event });
    gateway.telemetry.secondFactor('verify', event.code);
    return;
  }
  await audit(gateway, request, {
    kind: 'second_factor',
    outcome: 'success',
    userId,
    detail: { action: event.action, ...event.detail },
  });
  gateway.telemetry.secondFactor(event.action, 'success');
}

/** A recovery code: 10 random base32 characters, in two groups (50 bits). */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * The session of a posted form, whose token must be that session's
 * (csrfTokenFor): else `csrf_failed`, or, without a session, `unauthenticated`.
 */
export async function formSession(
  gateway: Gateway,
  request: FormRequest,
  reply: FastifyReply,
  returnTo: string,
): Promise<RequestSession | undefined> {
  const active = await sessionOf(gateway, request);
  const csrf = (request.body ?? {}).csrf;
  if (active !== undefined && csrf === csrfTokenFor(active.id)) return active;
  const error =
    active === undefined
      ? new SsogateError('unauthenticated', 'no session')
      : new SsogateError('csrf_failed', 'the second-factor form token does not match');
  sendFailure(gateway, request, reply, error, { as: 'page', tryAgainHref: factorHref(returnTo) });
  return undefined;
}

/** Whether the user may give another answer; past the limit (factor-limit.ts), its page, audited. */
export async function underLimit(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
): Promise<boolean> {
  try {
    await checkFactorLimit(limitDeps(gateway), request.ip, active.user.id);
    return true;
  } catch (error) {
    const { code, reference } = sendFailure(gateway, request, reply, error, {
      as: 'page',
      tryAgainHref: factorHref(returnTo),
    });
    await recordFactorEvent(gateway, request, active, { code, reference });
    return false;
  }
}

/** A wrong answer: counted toward the limit, audited and counted by its code. */
export async function refuseCode(
  gateway: Gateway,
  request: FastifyRequest,
  active: RequestSession,
  code = 'second_factor_invalid',
): Promise<void> {
  await recordFactorFailure(limitDeps(gateway), request.ip, active.user.id);
  await recordFactorEvent(gateway, request, active, { code });
}

/** Records the factor on the sign-in's session (and its hosts'), clears the failures, audits. */
export async function acceptFactor(
  gateway: Gateway,
  request: FastifyRequest,
  active: RequestSession,
  method: string,
): Promise<void> {
  const { session } = active;
  const signIn = { idHash: session.signInHash ?? session.idHash, userRowId: session.userRowId };
  await gateway.storage.sessions.recordFactor(signIn, { method, at: gateway.clock() });
  await recordFactorSuccess(limitDeps(gateway), request.ip, active.user.id);
  await recordFactorEvent(gateway, request, active, { action: 'verify', detail: { method } });
}

/**
 * The end of an enrolment whose factor is stored: audited, and counted as
 * the factor given now. A user's first factor comes with recovery codes,
 * shown once (and never cached); another goes straight back to `returnTo`.
 */
export async function finishEnrolment(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  enrolled: {
    readonly returnTo: string;
    readonly first: boolean;
    readonly method: string;
    readonly detail: Readonly<Record<string, string>>;
    readonly now: number;
  },
): Promise<FastifyReply> {
  await recordFactorEvent(gateway, request, active, { action: 'enrol', detail: enrolled.detail });
  await acceptFactor(gateway, request, active, enrolled.method);
  if (!enrolled.first) return reply.redirect(enrolled.returnTo, 303);
  const codes = Array.from({ length: recoveryCodeCount }, () => newRecoveryCode());
  await gateway.storage.secondFactors.replaceRecoveryCodes(active.user.id, codes, enrolled.now);
  void reply.header('cache-control', 'no-store');
  return sendPage(
    reply,
    200,
    recoveryCodesPage({
      codes,
      returnTo: enrolled.returnTo,
      page: pageContext(gateway, request),
    }),
  );
}
