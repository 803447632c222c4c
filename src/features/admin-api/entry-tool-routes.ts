import { z } from 'zod';
import type { CompiledOAuth2Entry, UserInfoReport, SsogateError } from '../../core/index.js';
import {
  MASK,
  entryInput,
  functionNames,
  isSsogateError,
  maskSecrets,
  maxResponseBytes,
  placeholderMatrix,
  presentMappedUser,
  presentMappingLine,
  processAppTokenResponse,
  processTokenResponse,
  processUserInfoCallResponse,
  readUserInfo,
  secretChange,
  templateKinds,
  userAttributes,
  validateEntry,
} from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sourceKinds, sourceOf } from '../sign-in/sources/source-registry.js';
import { invalidField, presentProblem } from './api-failure.js';
import { withKeptSecrets } from './kept-secrets.js';
import type { ApiRouter } from './api-router.js';
import { entryAnswers, validatedForSaving } from './entry-answers.js';
import { entryModelAnswer, entryTestAnswer, entryValidationAnswer } from './response-schemas.js';
import { entryParams } from './schemas.js';

const existingId = entryParams.shape.id
  .optional()
  .describe('validate as an update of this entry: its stored secret counts');

/** An entry as typed so far: any subset of the fields; checked by validateEntry. */
const entryDraft = entryInput.partial().loose();

const entryValidationBody = entryDraft.extend({ existingId });

const sample = z.string().max(maxResponseBytes, `must be at most ${maxResponseBytes} characters`);

export const entryTestBody = z.strictObject({
  entry: z
    .record(z.string(), z.unknown())
    .describe('an entry as for create (any subset); its problems are reported, not refused'),
  existingId,
  appTokenResponse: sample
    .optional()
    .describe("the body of the application-token call's response, for an entry with appToken"),
  tokenResponse: sample.describe('the body of a token response, as the server sends it'),
  userInfoResponse: sample.describe('the body of a user-info response'),
  userInfoCallResponses: z
    .record(z.string(), sample)
    .optional()
    .describe('the body of each call after user info (userInfoCalls), by its name'),
});

/**
 * The console's helpers for writing an entry (docs/entries.md): check it while it
 * is typed, try it on pasted responses, and list what a template or an
 * expression may use. None stores anything or calls out: the entry is
 * compiled and run by the same core functions a sign-in uses.
 */
export function entryToolRoutes(api: ApiRouter): void {
  const { gateway } = api;

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/entry-validation',
      tag: 'entries',
      summary: 'Check an entry without saving it',
      description:
        'Every problem at once, each with its field and position, as a create or update would report them.',
      bodyCheckedByAction: entryValidationBody,
      responses: { 200: { description: 'the verdict', schema: entryValidationAnswer } },
      errors: [404],
    },
    async ({ rawBody }) => {
      const { existingId: id, ...entry } = asObject(rawBody);
      const candidate = await asStored(gateway, entry, parsedId(id));
      const validation = validatedForSaving(gateway, candidate.input);
      if (!validation.ok) {
        return {
          body: { ok: false, problems: problemsOf(validation.problems, candidate.secrets) },
        };
      }
      return { body: { ok: true, warnings: validation.warnings } };
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/entry-test',
      tag: 'entries',
      summary: 'Run an entry over pasted responses',
      description:
        "The core's processing of the application-token, token, user-info and chained user-info " +
        'answers, exactly as a sign-in runs it, on the samples only: no call goes out. The ' +
        'tokens and named values come back masked.',
      body: entryTestBody,
      responses: {
        200: { description: 'the user, or the step that failed', schema: entryTestAnswer },
      },
      errors: [404],
    },
    async ({ body }) => {
      const candidate = await asStored(gateway, body.entry, body.existingId);
      const validation = validateEntry(candidate.input);
      if (!validation.ok) {
        const problems = problemsOf(validation.problems, candidate.secrets);
        return {
          body: {
            ok: false,
            step: 'entry',
            error: {
              code: 'entry_invalid',
              message: `the entry has ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
            },
            problems,
          },
        };
      }
      // A source whose server's answers the gateway never reads (an
      // extension reads them itself) has nothing to run them through.
      const steps = sourceOf(validation.entry).oauth2Steps;
      if (steps === undefined) {
        throw invalidField(
          'entry.type',
          'the test panel reads OAuth2 responses; try an extension entry with its connection test',
        );
      }
      return { body: runSamples(steps, body, candidate.secrets) };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/entry-model',
      tag: 'entries',
      summary: 'What templates and expressions may use',
      description:
        'The placeholders each URL template allows, the user attributes a mapping may fill, ' +
        'the functions of the expression language: the tables validation enforces; and the ' +
        'kinds of sign-in source, with what the entry form shows for each.',
      responses: { 200: { description: 'the tables', schema: entryModelAnswer } },
    },
    () =>
      Promise.resolve({
        body: {
          placeholders: Object.fromEntries(
            templateKinds.map((kind) => [kind, [...placeholderMatrix[kind]]]),
          ),
          attributes: [...userAttributes],
          functions: [...functionNames],
          kinds: sourceKinds.map((kind) => ({ ...kind, sections: [...kind.sections] })),
        },
      }),
  );
}

interface Candidate {
  readonly input: Record<string, unknown>;
  /** Values never to echo: the secret sent or stored. */
  readonly secrets: readonly string[];
}

/**
 * The entry as an update of `existingId` would store it: without an
 * appsecret (or with ""), the stored one counts, as PUT keeps it, and as
 * PUT only while the entry calls no origin the stored one does not
 * (withKeptSecrets, kept-secrets.ts).
 */
export async function asStored(
  gateway: Gateway,
  entry: Record<string, unknown>,
  existingId: string | undefined,
): Promise<Candidate> {
  const sent = [entry.appsecret, entry.extensionSecret].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (existingId === undefined) return { input: entry, secrets: sent };
  if (entry.id !== undefined && entry.id !== existingId) {
    throw invalidField(
      'id',
      `must be "${existingId}" as existingId, or absent: an id cannot change`,
    );
  }
  const before = await entryAnswers(gateway).stored(existingId);
  const input = withKeptSecrets(entry, before.input);
  const kept = secretChange(entry.appsecret) === 'keep' ? before.input.appsecret : undefined;
  const storedSecrets = [kept, before.input.extensionSecret].filter(
    (value): value is string => value !== undefined,
  );
  return { input, secrets: [...sent, ...storedSecrets] };
}

function runSamples(
  entry: CompiledOAuth2Entry,
  body: z.output<typeof entryTestBody>,
  secrets: readonly string[],
): Record<string, unknown> {
  const known = [...secrets];
  const appToken = entry.shapes.appToken === undefined ? undefined : body.appTokenResponse;
  if (entry.shapes.appToken !== undefined) {
    if (appToken === undefined) {
      throw invalidField('appTokenResponse', 'is required: the entry fetches an application token');
    }
    try {
      known.push(
        processAppTokenResponse(entry, { status: 200, body: appToken }, { secrets: known }).token,
      );
    } catch (error) {
      return failedStep('app_token', error, known);
    }
  }
  for (const call of entry.shapes.userInfoCalls) {
    if (body.userInfoCallResponses?.[call.name] === undefined) {
      throw invalidField(
        `userInfoCallResponses.${call.name}`,
        `is required: the entry makes the call ${call.name} after user info`,
      );
    }
  }
  // An entry that reads the user with the code itself (codeInUserInfo, no
  // tokenUrl) has no token response to read.
  let token: { accessToken: string; values: Readonly<Record<string, string>> } = {
    accessToken: '',
    values: {},
  };
  try {
    if (entry.token !== undefined) {
      token = processTokenResponse(
        entry,
        { status: 200, body: body.tokenResponse },
        { secrets: known },
      );
    }
  } catch (error) {
    return failedStep('token', error, known);
  }
  known.push(
    ...[token.accessToken, ...Object.values(token.values)].filter((value) => value !== ''),
  );
  let report: UserInfoReport;
  try {
    report = readUserInfo(
      entry,
      { status: 200, body: body.userInfoResponse },
      { secrets: known, tokenValues: token.values, report: true },
    );
  } catch (error) {
    return failedStep('userinfo', error, known);
  }
  const mapping = report.lines.map((line) => presentMappingLine(line, known));
  if ('error' in report.result) {
    return { ...failedStep('userinfo', report.result.error, known), mapping };
  }
  let user = report.result.answer.user;
  const named: Record<string, string> = { ...token.values, ...report.result.answer.values };
  for (const call of entry.shapes.userInfoCalls) {
    try {
      const answer = processUserInfoCallResponse(
        call,
        user,
        { status: 200, body: body.userInfoCallResponses?.[call.name] ?? '' },
        { secrets: known },
      );
      user = answer.user;
      Object.assign(named, answer.values);
    } catch (error) {
      return { ...failedStep('userinfo_call', error, known), call: call.name, mapping };
    }
  }
  return {
    ok: true,
    mapping,
    ...(appToken === undefined ? {} : { appToken: MASK }),
    accessToken: MASK,
    tokenValues: Object.fromEntries(Object.keys(token.values).map((name) => [name, MASK])),
    // The values the calls read for the next (userInfoValues, each call's), masked.
    values: Object.fromEntries(Object.keys(named).map((name) => [name, MASK])),
    user: presentMappedUser(user, known),
  };
}

function failedStep(
  step: 'app_token' | 'token' | 'userinfo' | 'userinfo_call',
  error: unknown,
  secrets: readonly string[],
) {
  if (!isSsogateError(error)) throw error;
  return {
    ok: false,
    step,
    error: {
      code: error.code,
      message: maskSecrets(error.message, secrets),
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.column === undefined ? {} : { column: error.column }),
    },
  };
}

function problemsOf(problems: readonly SsogateError[], secrets: readonly string[]) {
  return problems.map((problem) => {
    const presented = presentProblem(problem);
    return { ...presented, message: maskSecrets(problem.message, secrets) };
  });
}

function parsedId(value: unknown): string | undefined {
  const result = existingId.safeParse(value);
  if (!result.success) throw invalidField('existingId', 'must be the id of an entry');
  return result.data;
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidField('body', 'must be a JSON object');
  }
  return value as Record<string, unknown>;
}
