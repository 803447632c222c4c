import { z } from 'zod';
import { EntryInvalidError, SsogateError } from '../../../core/index.js';
import type { ApiRouter } from '../../admin-api/api-router.js';
import { entryAnswers, validatedForSaving } from '../../admin-api/entry-answers.js';
import { asStored, entryTestBody } from '../../admin-api/entry-tool-routes.js';
import { entryParams } from '../../admin-api/schemas.js';
import type { Gateway } from '../trial-gateway.js';
import type { StartedTrial } from '../start-trial.js';
import { startTrialSignIn } from '../start-trial.js';
import type { TraceAnswer, TrialSignInTrace } from '../trace-types.js';
import { traceText } from '../trace.js';

const startedAnswer = z
  .looseObject({
    id: z.string().describe('reads the trace at /_sso/api/test-sign-ins/{id}'),
    url: z.string().describe("the entry's real authorization URL, to open in a new window"),
    callbackUntil: z.string().describe('ISO 8601: the provider must call back before then'),
    expiresAt: z.string().describe('ISO 8601: the trace can be read until then'),
  })
  .meta({ id: 'TestSignInStarted' });

const traceAnswer = z
  .looseObject({
    trace: z.looseObject({
      id: z.string(),
      entryId: z.string(),
      draft: z.boolean(),
      origins: z
        .array(z.string())
        .describe('the origins the entry tested makes the gateway call: where its secrets go'),
      status: z.enum(['waiting', 'running', 'done']),
      outcome: z.enum(['success', 'failure']).nullable(),
      error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
      steps: z.array(z.record(z.string(), z.unknown())),
      user: z.record(z.string(), z.unknown()).nullable(),
      provisioning: z.record(z.string(), z.unknown()).nullable(),
    }),
    text: z.string().describe('the same trace as plain text, for a support ticket'),
  })
  .meta({ id: 'TestSignInTrace' });

const draftBody = entryTestBody.pick({ entry: true, existingId: true });

const testParams = z.strictObject({ id: z.string().regex(/^[\w-]{1,64}$/, 'must be a test id') });

/**
 * Test sign-ins (docs/admin-api.md#test-sign-in): start one with a stored
 * entry or a draft, then read its trace. Only the administrator (or API
 * token) who started a test reads it. Declared through the admin API's
 * router (trial-sign-in/routes.ts hands them to it).
 */
export function trialSignInRoutes(api: ApiRouter, gateway: Gateway): void {
  const answers = entryAnswers(gateway);

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/entries/:id/test-sign-in',
      tag: 'entries',
      summary: 'Start a test sign-in with a stored entry',
      description:
        "Answers the entry's real authorization URL. Its callback runs every call of the entry " +
        'and records a masked trace, but signs nobody in and writes no user.',
      params: entryParams,
      responses: {
        201: { description: 'the test, waiting for its callback', schema: startedAnswer },
      },
      errors: [404],
    },
    async ({ params, admin }) => {
      await answers.stored(params.id);
      const entry = await gateway.entries.get(params.id);
      if (entry === undefined) throw new SsogateError('entry_unknown', `no entry "${params.id}"`);
      return started(await startTrialSignIn(gateway, admin.actor, entry, undefined));
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/entries/test-sign-in',
      tag: 'entries',
      summary: 'Start a test sign-in with an unsaved entry',
      description:
        'As for a stored entry, with the entry as the form has it; with `existingId`, the ' +
        "stored entry's secret counts when none is sent. The entry is not saved; the test keeps it, " +
        'sealed, for its callback.',
      body: draftBody,
      responses: {
        201: { description: 'the test, waiting for its callback', schema: startedAnswer },
      },
      errors: [404],
    },
    async ({ body, admin }) => {
      const candidate = await asStored(gateway, body.entry, body.existingId);
      const validation = validatedForSaving(gateway, candidate.input);
      if (!validation.ok) throw new EntryInvalidError(validation.problems);
      const entry = validation.entry;
      return started(await startTrialSignIn(gateway, admin.actor, entry, entry.input));
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/test-sign-ins/:id',
      tag: 'entries',
      summary: "A test sign-in's trace",
      description:
        'Waiting, running, or done with each step: the requests as sent and the answers, ' +
        'masked; each expression; the mapped user; what provisioning would do.',
      params: testParams,
      responses: { 200: { description: 'the trace', schema: traceAnswer } },
      errors: [404, 410],
    },
    async ({ params, admin }) => {
      const trace = await readableTrace(gateway, params.id, admin.actor);
      // The console reads it by this type (console/src/types.ts).
      return { body: { trace, text: traceText(trace) } satisfies TraceAnswer };
    },
  );
}

function started(test: StartedTrial) {
  return {
    status: 201,
    body: {
      id: test.id,
      url: test.url,
      callbackUntil: new Date(test.callbackUntil).toISOString(),
      expiresAt: new Date(test.expiresAt).toISOString(),
    },
  };
}

async function readableTrace(
  gateway: Gateway,
  id: string,
  actor: string,
): Promise<TrialSignInTrace> {
  const test = await gateway.storage.trialSignIns.get(id);
  if (test === undefined) throw new SsogateError('test_sign_in_unknown', `no test sign-in "${id}"`);
  if (test.actor !== actor) {
    throw new SsogateError('test_sign_in_forbidden', `test sign-in "${id}" is not yours`);
  }
  if (test.expiresAt <= gateway.clock()) {
    throw new SsogateError('test_sign_in_expired', `test sign-in "${id}" has expired`);
  }
  const trace = JSON.parse(test.trace ?? 'null') as TrialSignInTrace;
  if (test.status === 'waiting' && test.callbackUntil <= gateway.clock()) {
    // The provider never called back in time: the test is over, and says so.
    return {
      ...trace,
      status: 'done',
      outcome: 'failure',
      error: { code: 'state_invalid', message: 'the provider did not call back in time' },
    };
  }
  // Claimed by its callback but not yet written: say it runs.
  return test.status === 'running' && trace.status === 'waiting'
    ? { ...trace, status: 'running' }
    : trace;
}
