import type {
  CompiledEntry,
  CompiledOAuth2Entry,
  EntryInput,
  MappedUser,
} from '../../core/index.js';
import {
  MASK,
  SignInError,
  entryCallOrigins,
  isSsogateError,
  presentMappedUser,
  presentMappingLine,
  validateEntry,
} from '../../core/index.js';

import type { Gateway } from './trial-gateway.js';
import { Telemetry } from '../../foundation/observability/telemetry.js';
import { sourceOf } from '../sign-in/sources/source-registry.js';
import type { AppTokenStore, PendingSignIn } from '../../foundation/storage/types.js';
import type { TrialSignInRecord } from './storage/types.js';
import { planProvisioning } from '../sign-in/provisioning-plan.js';
import type { ProvisioningPlan } from '../sign-in/provisioning-plan.js';
import type { TrialSignInTrace } from './trace-types.js';
import { idTokenChecksResult } from './id-token-trace.js';
import { TraceRecorder } from './trace-recorder.js';

/** What a test keeps sealed until its callback (start-trial.ts). */
export interface TrialSecrets {
  /** The unsaved entry tested, appsecret included; null: the stored entry. */
  readonly draft: EntryInput | null;
  readonly state: string;
  readonly redirectUri: string;
  readonly codeVerifier: string | null;
  readonly nonce: string | null;
}

/** Metrics and traces count real sign-ins only. */
const quietTelemetry = new Telemetry(undefined);

/**
 * The callback of a test sign-in: the entry's real calls, through the same
 * steps a sign-in runs (src/features/sign-in/oauth2-steps.ts, the extension's
 * /callback), recorded in a trace instead of signing anyone in. Provisioning
 * is only planned; the application-token cache is read but never written.
 */
export async function runTrialSignIn(
  gateway: Gateway,
  test: TrialSignInRecord,
  routeEntryId: string,
  query: Readonly<Record<string, unknown>>,
): Promise<TrialSignInTrace> {
  const sealed = JSON.parse(test.secrets) as TrialSecrets;
  const code = single(query.code);
  const recorder = new TraceRecorder(
    [sealed.state, sealed.codeVerifier, sealed.nonce, code, sealed.draft?.appsecret],
    'callback',
  );
  let user: MappedUser | undefined;
  let plan: ProvisioningPlan | null = null;
  let error: { code: string; message: string } | null = null;
  let entry: CompiledEntry | undefined;
  try {
    entry = await testedEntry(gateway, test, sealed.draft);
    const source = sourceOf(entry);
    for (const secret of source.secrets) recorder.secret(secret);
    if (entry.id !== routeEntryId) {
      throw new SignInError('state_invalid', `the state belongs to entry ${entry.id}`);
    }
    // Found under a correlation field of some source (trial-callback.ts): it must be this one's.
    const field = source.callback.correlationField;
    if (field === undefined || single(query[field]) !== sealed.state) {
      throw new SignInError(
        'state_invalid',
        `entry ${entry.id} carries its state back in ${field ?? 'no field'}`,
      );
    }
    recorder.result({
      label: 'query parameters',
      outcome: 'ok',
      value: Object.keys(query).sort().join(', '),
    });
    user = await signedInUser(gateway, entry, recorder, query, sealed, test);
    recorder.begin('provisioning');
    plan = await planProvisioning(gateway.storage, entry, user);
    if (plan.action === 'refuse') {
      error = { code: plan.code ?? 'internal_error', message: plan.message };
    }
  } catch (failure) {
    if (!isSsogateError(failure)) throw failure;
    error = recorder.fail(failure);
    const steps = entry === undefined ? undefined : sourceOf(entry).oauth2Steps;
    if (steps !== undefined) {
      reportToken(steps, recorder);
      reportMapping(steps, recorder);
    }
  }
  const secrets = recorder.allSecrets();
  const steps = recorder.steps();
  return {
    id: test.id,
    entryId: test.entryId,
    draft: sealed.draft !== null,
    // The entry as it ran: a stored entry may have changed since the start.
    origins: entry === undefined ? startedOrigins(test) : entryCallOrigins(entry),
    status: 'done',
    startedAt: new Date(test.createdAt).toISOString(),
    finishedAt: new Date(gateway.clock()).toISOString(),
    outcome: error === null ? 'success' : 'failure',
    error: error === null ? null : (steps.find((step) => step.error !== undefined)?.error ?? error),
    steps,
    user: user === undefined ? null : presentMappedUser(user, secrets),
    provisioning: plan,
  };
}

/** The origins recorded when the test started (none in a trace older than the list). */
export function startedOrigins(test: TrialSignInRecord): readonly string[] {
  const waiting = JSON.parse(test.trace ?? '{}') as Partial<TrialSignInTrace>;
  return waiting.origins ?? [];
}

/** The entry the test started with: its draft, or the stored entry as it is now. */
async function testedEntry(
  gateway: Gateway,
  test: TrialSignInRecord,
  draft: EntryInput | null,
): Promise<CompiledEntry> {
  if (draft === null) {
    const stored = await gateway.entries.get(test.entryId);
    if (stored === undefined) {
      throw new SignInError(
        'entry_unknown',
        `entry ${test.entryId} was deleted since the test started`,
      );
    }
    return stored;
  }
  const validation = validateEntry(draft);
  if (!validation.ok) throw new SignInError('entry_invalid', 'the draft entry no longer validates');
  return validation.entry;
}

async function signedInUser(
  gateway: Gateway,
  entry: CompiledEntry,
  recorder: TraceRecorder,
  query: Readonly<Record<string, unknown>>,
  sealed: TrialSecrets,
  test: TrialSignInRecord,
): Promise<MappedUser> {
  const source = sourceOf(entry);
  const pending: PendingSignIn = {
    stateHash: test.stateKey,
    entryId: entry.id,
    returnTo: '/',
    bindingHash: '',
    redirectUri: sealed.redirectUri,
    codeVerifier: sealed.codeVerifier,
    nonce: sealed.nonce,
    createdAt: test.createdAt,
    expiresAt: test.callbackUntil,
  };
  const mapped = await source.readTrialAnswer(
    {
      appTokens: readOnlyAppTokens(gateway.storage.appTokens),
      send: recorder.recording(gateway.send),
      clock: gateway.clock,
      random: gateway.random,
      oidc: gateway.oidc,
      documents: gateway.documents,
      telemetry: quietTelemetry,
    },
    query,
    pending,
    recorder,
  );
  const steps = source.oauth2Steps;
  if (steps !== undefined) {
    reportToken(steps, recorder);
    reportMapping(steps, recorder);
  }
  return mapped;
}

/**
 * The token step's expressions, once it passed: the token and values show
 * masked. Each is the one the entry ran, discovery's included where the
 * stored entry left the field empty (src/core/oidc/discovered-templates.ts).
 * An OpenID Connect entry's id_token checks are listed whether they passed
 * or not.
 */
function reportToken(entry: CompiledOAuth2Entry, recorder: TraceRecorder): void {
  if (!recorder.hasStep('token')) return;
  const failedWith = recorder.failureCodeOf('token');
  const idToken = entry.oidc === undefined ? undefined : idTokenChecksResult(failedWith);
  if (idToken !== undefined) recorder.result(idToken, 'token');
  // A failed token step says why itself; its expressions gave nothing to show.
  if (failedWith !== undefined) return;
  const condition = entry.token?.successCondition?.source;
  if (condition !== undefined) {
    recorder.result(
      { label: `successCondition: ${condition}`, outcome: 'ok', value: true },
      'token',
    );
  }
  recorder.result(
    { label: `tokenParse: ${entry.tokenParse?.source ?? ''}`, outcome: 'ok', value: MASK },
    'token',
  );
  for (const name of Object.keys(recorder.tokenValuesRead ?? {})) {
    recorder.result({ label: `tokenValues.${name}`, outcome: 'ok', value: MASK }, 'token');
  }
}

/**
 * Each user-info mapping line, as the steps read the answer (the report of
 * readUserInfo), with its value or error: what an administrator needs to
 * mend an expression.
 */
function reportMapping(entry: CompiledOAuth2Entry, recorder: TraceRecorder): void {
  const answer = recorder.answerOf('user info');
  if (answer === undefined || entry.oidc?.userInfo === 'claims') return;
  const secrets = recorder.allSecrets();
  const condition = entry.userInfo.successCondition?.source;
  if (condition !== undefined && answer.status >= 200 && answer.status < 300) {
    recorder.result(
      { label: `successCondition: ${condition}`, outcome: 'ok', value: conditionHeld(recorder) },
      'user info',
    );
  }
  // No report: the answer was refused (its status, the success condition), which the step says.
  for (const line of recorder.userInfoReportRead?.lines ?? []) {
    const presented = presentMappingLine(line, secrets);
    const expression = mappingExpression(entry, line.attribute);
    recorder.result(
      {
        label: `${line.attribute} = ${expression}`,
        outcome: line.outcome === 'mapped' ? 'ok' : line.outcome,
        ...(presented.value === undefined ? {} : { value: presented.value }),
        ...(line.error === undefined
          ? {}
          : { error: presented.error as { code: string; message: string } }),
      },
      'user info',
    );
  }
}

/** Whether the user-info step got past its success condition: it failed with no other cause. */
function conditionHeld(recorder: TraceRecorder): boolean {
  // A step's failure message starts with its cause's code (src/features/sign-in/oauth2-steps.ts).
  return recorder.failureOf('user info')?.startsWith('success_condition_failed') !== true;
}

/**
 * The expression the entry ran for an attribute: its compiled mapping,
 * which holds discovery's standard claims when userInfoParse was left empty
 * (src/core/oidc/discovered-templates.ts), or a call's after user info.
 */
function mappingExpression(entry: CompiledOAuth2Entry, attribute: string): string {
  const mappings = [
    ...entry.userInfoParse,
    ...entry.shapes.userInfoCalls.flatMap((call) => call.mapping),
  ];
  return mappings.find((mapping) => mapping.attribute === attribute)?.expression.source ?? '';
}

/** The cached application token is used; a fresh one is not kept, a refused one not dropped. */
function readOnlyAppTokens(store: AppTokenStore): AppTokenStore {
  return {
    get: (entryId) => store.get(entryId),
    put: () => Promise.resolve(),
    drop: () => Promise.resolve(),
  };
}

/** A query parameter given exactly once. */
function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
