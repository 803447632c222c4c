import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignInError, isSsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { readCookie, setSessionCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { AuditStore } from '../../foundation/storage/types.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { sessionIdOf } from '../sessions/request-session.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { startSession } from '../sessions/session-service.js';
import { startConsoleSession } from '../sessions/console-session.js';
import type { CallbackQuery, SignInSuccess } from './complete-sign-in.js';
import { completeSignIn } from './complete-sign-in.js';
import { signInEndsHeldUntilCommit } from '../../foundation/storage/sign-in-ends.js';
import { keepProviderSession } from './keep-provider-session.js';

type CallbackRequest = FastifyRequest<{ Params: { readonly id: string } }>;

/**
 * Answers the callback of an administrator's test sign-in
 * (src/features/trial-sign-in/trial-callback.ts), resolving true when it did;
 * given by the app, over its gateway, because that feature builds on this one.
 */
export type TrialCallback = (
  request: FastifyRequest,
  reply: FastifyReply,
  routeEntryId: string,
  query: CallbackQuery,
) => Promise<boolean>;

/** When a callback began, for its audit event and for the session cache. */
interface CallbackStart {
  readonly startedAt: number;
  /** A revocation from now on keeps the new session out of the cache. */
  readonly generationBefore: number;
}

export function callbackStart(gateway: Gateway): CallbackStart {
  return {
    startedAt: gateway.clock(),
    generationBefore: gateway.sessionCache.currentGeneration(),
  };
}

/**
 * Flow steps 10 to 16 for a callback whose fields are read (from the query,
 * or from a posted form): the sign-in completed, a session started and the
 * browser sent to its return-to path; or the failure page, its audit event.
 */
export async function completeCallback(
  gateway: Gateway,
  request: CallbackRequest,
  reply: FastifyReply,
  query: CallbackQuery,
  start: CallbackStart,
): Promise<FastifyReply> {
  // The session a new sign-in replaces ends once the sign-in has committed.
  const replaced = signInEndsHeldUntilCommit(gateway.signInEnds);
  try {
    const result = await completeSignIn(
      gateway,
      request.params.id,
      query,
      readCookie(gateway, request, 'binding'),
      async (stores, success) => {
        // Afresh for each run of the unit, in case a run is tried again.
        replaced.reset();
        // The event first, then what the provider's session keeps, then
        // the session: a session is the last thing written, so a failure
        // anywhere leaves no session behind either, and none commits
        // without the record a provider's logout finds it by.
        await auditSignInSuccess(gateway, request, success, start, stores.audit);
        const started = await startSession(
          {
            ...gateway.sessions,
            sessions: stores.sessions,
            users: stores.users,
            signInEnded: replaced.raise,
          },
          success.user,
          success.entry.id,
          sessionIdOf(gateway, request),
          {
            signInRecorded: true,
            beside: (session) => keepProviderSession(stores.upstreamSessions, session, success),
          },
        );
        return { ...success, sessionId: started.id, started: started.active };
      },
    );
    await replaced.release();
    await settleSignIn(gateway, reply, result, start);
    // 302 after a GET; after a posted callback 303, so the next request is a GET.
    return await reply.redirect(result.returnTo, request.method === 'POST' ? 303 : 302);
  } catch (error) {
    return failCallback(gateway, request, reply, error, start);
  }
}

/** A sign-in's success event, written in the sign-in's own unit of work. */
export async function auditSignInSuccess(
  gateway: Gateway,
  request: FastifyRequest,
  success: SignInSuccess,
  start: CallbackStart,
  inTransaction: AuditStore,
): Promise<void> {
  await audit(
    gateway,
    request,
    {
      kind: 'sign_in',
      outcome: 'success',
      entryId: success.entry.id,
      userId: success.user.userId,
      startedAt: start.startedAt,
    },
    inTransaction,
    'request',
  );
}

/** A sign-in whose session committed, as the unit of work returns it. */
interface SignedIn {
  readonly entry: { readonly id: string };
  readonly sessionId: string;
  readonly started: ActiveSession;
}

/**
 * A committed sign-in's session in the browser: cached, its cookie set, the
 * console's own session started, the sign-in counted as finished.
 */
export async function settleSignIn(
  gateway: Gateway,
  reply: FastifyReply,
  result: SignedIn,
  start: CallbackStart,
): Promise<void> {
  // Committed, with what the provider's session keeps: the page the
  // browser goes to next, and the first forward-auth check, find it
  // without reading it back. A re-validation due now would pass (the
  // provider vouched for it this instant), so nothing is skipped. The
  // cache keeps it only if no revocation (a back-channel logout
  // included) came since the callback began.
  gateway.sessionCache.remember(result.sessionId, result.started, start.generationBefore);
  setSessionCookie(gateway, reply, result.sessionId);
  await startConsoleSession(gateway, reply, result.started.session);
  gateway.telemetry.signInFinished(result.entry.id, 'success');
}

/** A failed callback: its page with a reference, its telemetry and its audit event. */
export async function failCallback(
  gateway: Gateway,
  request: CallbackRequest,
  reply: FastifyReply,
  error: unknown,
  start: CallbackStart,
): Promise<FastifyReply> {
  const { code, reference } = sendFailure(gateway, request, reply, error, {
    as: 'page',
    tryAgainHref: `/_sso/login/${encodeURIComponent(request.params.id)}`,
  });
  gateway.telemetry.signInFinished(knownEntryOf(error), code);
  await audit(
    gateway,
    request,
    {
      kind: 'sign_in',
      outcome: 'failure',
      entryId: error instanceof SignInError ? error.entryId : request.params.id,
      userId: error instanceof SignInError ? error.userId : null,
      code,
      reference,
      startedAt: start.startedAt,
      ...(isSsogateError(error) && error.facts !== undefined ? { detail: error.facts } : {}),
    },
    undefined,
    'request',
  );
  return reply;
}

/** The entry of a failed sign-in, if it is one that exists: an unknown id is the client's text. */
function knownEntryOf(error: unknown): string | null {
  return error instanceof SignInError && error.code !== 'entry_unknown' ? error.entryId : null;
}
