import type { CompiledEntry, RandomSource } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Telemetry } from '../../foundation/observability/telemetry.js';
import type { PendingSignInStore } from '../../foundation/storage/types.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import { pendingKey } from './pending-key.js';
import { sourceOf } from './sources/source-registry.js';

interface StartSignInDeps {
  readonly publicUrl: string;
  readonly pendingSignIns: PendingSignInStore;
  readonly random: RandomSource;
  readonly clock: () => number;
  readonly pendingSignInMs: number;
  /** How many pending sign-ins one browser keeps; a new start evicts the oldest. */
  readonly pendingPerBrowser: number;
  /** For a source that is asked for its authorization URL (an extension). */
  readonly send: SendOutbound;
  /** For a source that reads a document from a URL first (a SAML identity provider's metadata). */
  readonly documents: FetchedDocuments;
  readonly telemetry: Telemetry;
}

/**
 * Flow step 2: stores the pending sign-in server-side (entry, state, return-to,
 * expiry, the hash of the browser-binding cookie) and returns where to send
 * the browser. Nothing about the sign-in travels in the URL but the state.
 */
export async function startSignIn(
  deps: StartSignInDeps,
  entry: CompiledEntry,
  returnTo: string,
  bindingValue: string,
): Promise<string> {
  const startedAt = deps.telemetry.now();
  const source = sourceOf(entry);
  const request = await source.authorizationRequest(deps);
  const now = deps.clock();
  const stateHash = pendingKey(entry.id, source, request.state, bindingValue);
  await deps.pendingSignIns.save(
    {
      stateHash,
      entryId: entry.id,
      returnTo,
      bindingHash: sha256Base64url(bindingValue),
      redirectUri: request.redirectUri,
      codeVerifier: request.codeVerifier ?? null,
      ...('nonce' in request && request.nonce !== undefined ? { nonce: request.nonce } : {}),
      createdAt: now,
      expiresAt: now + deps.pendingSignInMs,
    },
    deps.pendingPerBrowser,
  );
  deps.telemetry.signInStarted(entry.id, stateHash, startedAt);
  return request.url;
}
