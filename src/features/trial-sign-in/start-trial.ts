import type { CompiledEntry, EntryInput } from '../../core/index.js';
import { SsogateError, entryCallOrigins, randomToken } from '../../core/index.js';
import type { Gateway } from './trial-gateway.js';
import { pendingKey } from '../sign-in/pending-key.js';
import { sourceOf } from '../sign-in/sources/source-registry.js';
import { trialStateBytes } from './trial-state.js';
import type { TrialSecrets } from './run-trial.js';
import type { TrialSignInTrace } from './trace-types.js';

/** How long the console can read a test's trace after it started. */
const traceLifetimeMs = 30 * 60_000;

export interface StartedTrial {
  readonly id: string;
  /** The entry's real authorization URL, to open in a new window. */
  readonly url: string;
  readonly callbackUntil: number;
  readonly expiresAt: number;
}

/**
 * Starts an administrator's test sign-in (docs/admin-api.md#test-sign-in):
 * the entry's authorization request, as a sign-in makes it, kept with the
 * test instead of a pending sign-in, so that its callback records a trace
 * and signs nobody in. Found at the callback by what the source's
 * correlation field carries back (the state, a SAML entry's RelayState)
 * alone, so anyone's browser may finish it; an entry without `${state}`
 * cannot be tested.
 */
export async function startTrialSignIn(
  gateway: Gateway,
  actor: string,
  entry: CompiledEntry,
  draft: EntryInput | undefined,
): Promise<StartedTrial> {
  const source = sourceOf(entry);
  // trial-callback.ts finds a test by the correlation field of its callback.
  if (source.callback.correlationField === undefined) {
    throw new SsogateError(
      'test_sign_in_needs_state',
      'the authorization URL has no ${state}, by which a test sign-in finds its callback',
      { field: 'authorizeUrl' },
    );
  }
  const request = await source.authorizationRequest(
    {
      publicUrl: gateway.config.publicUrl,
      random: gateway.random,
      send: gateway.send,
      clock: gateway.clock,
      documents: gateway.documents,
    },
    { stateBytes: trialStateBytes, trial: true },
  );
  const now = gateway.clock();
  const id = randomToken(gateway.random, 18);
  const secrets: TrialSecrets = {
    draft: draft ?? null,
    state: request.state,
    redirectUri: request.redirectUri,
    codeVerifier: request.codeVerifier ?? null,
    nonce: 'nonce' in request && typeof request.nonce === 'string' ? request.nonce : null,
  };
  const waiting: TrialSignInTrace = {
    id,
    entryId: entry.id,
    draft: draft !== undefined,
    origins: entryCallOrigins(entry),
    status: 'waiting',
    startedAt: new Date(now).toISOString(),
    finishedAt: null,
    outcome: null,
    error: null,
    steps: [],
    user: null,
    provisioning: null,
  };
  const started: StartedTrial = {
    id,
    url: request.url,
    callbackUntil: now + gateway.config.pendingSignInMs,
    expiresAt: now + traceLifetimeMs,
  };
  await gateway.storage.trialSignIns.create({
    id,
    stateKey: pendingKey(entry.id, source, request.state, ''),
    actor,
    entryId: entry.id,
    status: 'waiting',
    secrets: JSON.stringify(secrets),
    trace: JSON.stringify(waiting),
    createdAt: now,
    callbackUntil: started.callbackUntil,
    expiresAt: started.expiresAt,
  });
  return started;
}
