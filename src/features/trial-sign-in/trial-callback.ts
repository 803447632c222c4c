import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from './trial-gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import { trialSignInPage } from '../../foundation/pages/index.js';
import type { TrialCallback } from '../sign-in/callback-answer.js';
import type { CallbackQuery } from '../sign-in/complete-sign-in.js';
import { stateKey } from '../sign-in/pending-key.js';
import { isTrialState } from './trial-state.js';
import type { TrialSignInRecord } from './storage/types.js';
import { runTrialSignIn, startedOrigins } from './run-trial.js';
import type { TrialSignInTrace } from './trace-types.js';

/**
 * The sign-in's callback routes' hook for test sign-ins (sign-in/routes.ts),
 * over the gateway whose storage holds them: handed in by the app, because
 * this feature builds on the sign-in.
 */
export function trialSignInCallback(gateway: Gateway): TrialCallback {
  return (request, reply, routeEntryId, query) =>
    finishTrialSignIn(gateway, request, reply, routeEntryId, query);
}

/**
 * The callback of a test sign-in, when the state is one a test is waiting
 * for: runs it, stores its trace, writes its one audit event and shows a
 * page saying nobody was signed in. False for any other callback, which
 * the sign-in flow then handles as ever.
 */
async function finishTrialSignIn(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  routeEntryId: string,
  query: CallbackQuery,
): Promise<boolean> {
  const state = query.state;
  // A sign-in's state never has a test's length: no lookup on that path.
  if (typeof state !== 'string' || !isTrialState(state)) return false;
  const test = await gateway.storage.trialSignIns.claim(stateKey(state), gateway.clock());
  if (test === undefined) return false;
  const startedAt = gateway.clock();
  let trace: TrialSignInTrace;
  try {
    trace = await runTrialSignIn(gateway, test, routeEntryId, query);
  } catch (error) {
    request.log.error({ err: error, testSignIn: test.id }, 'the test sign-in failed unexpectedly');
    trace = unexpectedFailure(gateway, test);
  }
  await gateway.storage.trialSignIns.saveTrace(test.id, JSON.stringify(trace), 'done');
  await audit(gateway, request, {
    kind: 'test_sign_in',
    outcome: trace.outcome === 'success' ? 'success' : 'failure',
    entryId: test.entryId,
    actor: test.actor,
    code: trace.error?.code ?? null,
    startedAt,
    detail: {
      testSignIn: test.id,
      draft: trace.draft,
      origins: [...trace.origins],
      ...(trace.provisioning === null ? {} : { provisioning: trace.provisioning.action }),
    },
  });
  sendPage(
    reply,
    200,
    trialSignInPage(
      trace.outcome === 'success'
        ? { outcome: 'success', page: pageContext(gateway, request) }
        : {
            outcome: 'failure',
            code: trace.error?.code ?? 'internal_error',
            page: pageContext(gateway, request),
          },
    ),
  );
  return true;
}

function unexpectedFailure(gateway: Gateway, test: TrialSignInRecord): TrialSignInTrace {
  const waiting = JSON.parse(test.trace ?? '{}') as TrialSignInTrace;
  return {
    ...waiting,
    origins: startedOrigins(test),
    status: 'done',
    finishedAt: new Date(gateway.clock()).toISOString(),
    outcome: 'failure',
    error: { code: 'internal_error', message: 'an unexpected error; the server log has it' },
  };
}
