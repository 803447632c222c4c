import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignInError, isSsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { readCookie, setSessionCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { sessionIdOf } from '../sessions/request-session.js';
import { startSession } from '../sessions/session-service.js';
import { startConsoleSession } from '../sessions/console-session.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { callbackQuery } from './callback-query.js';
import { completeSignIn } from './complete-sign-in.js';
import { keepProviderSession } from './keep-provider-session.js';
import { handsOffHere, sendToHandoff } from './handoff-start.js';
import { chooserHref } from './auth-host-sign-in.js';
import { redirectToEntry } from './send-to-sign-in.js';
import { tracedCallback } from './sign-in-trace.js';

interface EntryParams {
  readonly id: string;
}

/**
 * GET /_sso/login/{id} and GET /_sso/callback/{id} (docs/design.md#the-sign-in-flow).
 * `trialCallback` answers the callback of an administrator's test sign-in
 * (src/features/trial-sign-in/trial-callback.ts), resolving true when it did; it is
 * given here, by the app, because that feature builds on this one.
 */
export function signInRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  trialCallback: (
    gateway: Gateway,
    request: FastifyRequest,
    reply: FastifyReply,
    routeEntryId: string,
  ) => Promise<boolean>,
): void {
  app.get<{ Params: EntryParams; Querystring: Record<string, unknown> }>(
    '/_sso/login/:id',
    async (request, reply) => {
      const returnTo = safeReturnTo(request.query.return_to);
      // A sign-in runs on the auth host only, where its callback lands: on
      // an application host the browser is handed off, as from the chooser.
      const { host } = request.headers;
      if (handsOffHere(gateway, host))
        return sendToHandoff(gateway, request, reply, host, returnTo);
      try {
        const entry = await gateway.entries.get(request.params.id);
        if (entry === undefined)
          throw new SignInError('entry_unknown', `no entry ${request.params.id}`);
        if (!entry.enabled)
          throw new SignInError('entry_disabled', `entry ${entry.id} is disabled`, {
            entryId: entry.id,
          });
        return await redirectToEntry(gateway, request, reply, entry.id, returnTo);
      } catch (error) {
        sendFailure(gateway, request, reply, error, {
          as: 'page',
          tryAgainHref: chooserHref(returnTo),
        });
        return reply;
      }
    },
  );

  app.get<{ Params: EntryParams; Querystring: Record<string, unknown> }>(
    '/_sso/callback/:id',
    tracedCallback(gateway, async (request, reply) => {
      const startedAt = gateway.clock();
      // A revocation from now on keeps the new session out of the cache (below).
      const generationBefore = gateway.sessionCache.currentGeneration();
      // RFC 9700 §4.2.4: the callback URL holds a code and state; keep it out of
      // any Referer and any cache.
      void reply.header('referrer-policy', 'no-referrer');
      // An administrator's test sign-in records its trace and signs nobody in.
      if (await trialCallback(gateway, request, reply, request.params.id)) return reply;
      try {
        const result = await completeSignIn(
          gateway,
          request.params.id,
          callbackQuery(request.url),
          readCookie(gateway, request, 'binding'),
          async (stores, success) => {
            // The event first, then what the provider's session keeps, then
            // the session: a session is the last thing written, so a failure
            // anywhere leaves no session behind either, and none commits
            // without the record a provider's logout finds it by.
            await audit(
              gateway,
              request,
              {
                kind: 'sign_in',
                outcome: 'success',
                entryId: success.entry.id,
                userId: success.user.userId,
                startedAt,
              },
              stores.audit,
              'request',
            );
            const started = await startSession(
              { ...gateway.sessions, sessions: stores.sessions, users: stores.users },
              success.user,
              success.entry.id,
              sessionIdOf(gateway, request),
              {
                signInRecorded: true,
                beside: (session) => keepProviderSession(stores.oidcSessions, session, success),
              },
            );
            return { ...success, sessionId: started.id, started: started.active };
          },
        );
        // Committed, with what the provider's session keeps: the page the
        // browser goes to next, and the first forward-auth check, find it
        // without reading it back. A re-validation due now would pass (the
        // provider vouched for it this instant), so nothing is skipped. The
        // cache keeps it only if no revocation (a back-channel logout
        // included) came since the callback began.
        gateway.sessionCache.remember(result.sessionId, result.started, generationBefore);
        setSessionCookie(gateway, reply, result.sessionId);
        await startConsoleSession(gateway, reply, result.started.session);
        gateway.telemetry.signInFinished(result.entry.id, 'success');
        return await reply.redirect(result.returnTo, 302);
      } catch (error) {
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
            startedAt,
            ...(isSsogateError(error) && error.facts !== undefined ? { detail: error.facts } : {}),
          },
          undefined,
          'request',
        );
        return reply;
      }
    }),
  );
}

/** The entry of a failed sign-in, if it is one that exists: an unknown id is the client's text. */
function knownEntryOf(error: unknown): string | null {
  return error instanceof SignInError && error.code !== 'entry_unknown' ? error.entryId : null;
}
