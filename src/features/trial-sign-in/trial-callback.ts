import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from './trial-gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import { trialSignInPage } from '../../foundation/pages/index.js';
import type { TrialCallback } from '../sign-in/callback-answer.js';
import type { CallbackQuery } from '../sign-in/complete-sign-in.js';
import { stateKey } from '../sign-in/pending-key.js';
import { correlationFields } from '../sign-in/sources/source-registry.js';
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
 * The callback of a test sign-in, when the value in a source's correlation
 * field (`state`, or a SAML Response's `RelayState`) is one a test is
 * waiting for, by GET, by a posted form or by the password form of an LDAP
 * entry (src/features/sign-in/ldap-password-form.ts): runs it, stores its trace, writes its one audit event and shows a
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
  const test = await waitingTest(gateway, query);
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

/**
 * The test waiting for this callback, claimed: looked up under each field a
 * source correlates by. run-trial.ts then checks that the value came in the
 * field the entry's own source reads.
 */
async function waitingTest(
  gateway: Gateway,
  query: CallbackQuery,
): Promise<TrialSignInRecord | undefined> {
  for (const field of correlationFields) {
    const value = query[field];
    // A sign-in's state never has a test's length: no lookup on that path.
    if (typeof value !== 'string' || !isTrialState(value)) continue;
    const test = await gateway.storage.trialSignIns.claim(stateKey(value), gateway.clock());
    if (test !== undefined) return test;
  }
  return undefined;
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
