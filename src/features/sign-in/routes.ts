import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SignInError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import type { TrialCallback } from './callback-answer.js';
import { callbackStart, completeCallback } from './callback-answer.js';
import { callbackQuery } from './callback-query.js';
import { formPostCallbackRoute } from './form-post-callback.js';
import { ldapPasswordFormRoutes } from './ldap-password-form.js';
import { handsOffHere, sendToHandoff } from './handoff-start.js';
import { chooserHref } from './auth-host-sign-in.js';
import { redirectToEntry } from './send-to-sign-in.js';
import { refuseDisabled } from './sources/enabled-entry.js';
import { tracedCallback } from './sign-in-trace.js';

interface EntryParams {
  readonly id: string;
}

/**
 * GET /_sso/login/{id} and GET /_sso/callback/{id} (docs/design.md#the-sign-in-flow),
 * and POST /_sso/callback/{id} for an entry whose server posts it
 * (form-post-callback.ts), and the password form of an LDAP entry (ldap-password-form.ts).
 * `trialCallback` answers the callback of an administrator's test sign-in
 * (src/features/trial-sign-in/trial-callback.ts), resolving true when it did; it is
 * given here, by the app, because that feature builds on this one.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function signInRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  trialCallback: TrialCallback,
): Promise<void> {
  await featureScope(app, (scope) => {
    signInFlowRoutes(scope, gateway, trialCallback);
  });
}

function signInFlowRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  trialCallback: TrialCallback,
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
        refuseDisabled(entry);
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

  app.get<{ Params: EntryParams }>(
    '/_sso/callback/:id',
    tracedCallback(
      gateway,
      (request) => callbackQuery(request.url),
      async (request, reply, query) => {
        const start = callbackStart(gateway);
        // RFC 9700 §4.2.4: the callback URL holds a code and state; keep it out of
        // any Referer and any cache.
        void reply.header('referrer-policy', 'no-referrer');
        // An administrator's test sign-in records its trace and signs nobody in.
        if (await trialCallback(request, reply, request.params.id, query)) return reply;
        return completeCallback(gateway, request, reply, query, start);
      },
    ),
  );
  formPostCallbackRoute(app, gateway, trialCallback);
  ldapPasswordFormRoutes(app, gateway, trialCallback);
}
