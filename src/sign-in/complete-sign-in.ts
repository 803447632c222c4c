import type {
  CompiledEntry,
  CompiledOAuth2Entry,
  ErrorCode,
  ErrorFacts,
  MappedUser,
  RandomSource,
  ThirdPartyResponse,
  SsogateError,
} from '../core/index.js';
import {
  SignInError,
  buildTokenRequest,
  excerpt,
  buildUserInfoRequest,
  checkCallbackIssuer,
  checkUserInfoResponse,
  isSsogateError,
  mapUserFromBody,
  userInfoBody,
  isVisibleAscii,
  maskSecrets,
  processTokenResponse,
  processUserInfoResponse,
} from '../core/index.js';
import { sha256Base64url } from '../crypto/hash.js';
import { extensionCallbackUser } from '../extension/extension-flow.js';
import type { Telemetry } from '../observability/telemetry.js';
import type { PendingSignIn, Storage, TogetherStores, UserRecord } from '../storage/types.js';
import type { VerifiedIdToken } from '../oidc/id-token.js';
import { verifyIdTokenResponse } from '../oidc/id-token.js';
import type { OidcSignIn } from '../oidc/oidc-sign-in.js';
import { refreshTokenOf } from '../oidc/oidc-sign-in.js';
import type { ProviderMetadata } from '../oidc/provider-metadata.js';
import type { EntryRegistry } from '../entries/entry-registry.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';
import { pendingKey, usesState } from './pending-key.js';
import { provisionUser } from './provision-user.js';

export interface CompleteSignInDeps {
  /** OpenID Providers' metadata and keys, for OpenID Connect entries. */
  readonly oidc: ProviderMetadata;
  readonly entries: EntryRegistry;
  readonly storage: Storage;
  readonly clock: () => number;
  readonly send: SendOutbound;
  /** Nonces of the calls to an extension service. */
  readonly random: RandomSource;
  readonly telemetry: Telemetry;
}

/** The callback's query as Fastify parsed it: a repeated parameter is an array. */
export type CallbackQuery = Readonly<Record<string, unknown>>;

export interface SignInSuccess {
  readonly user: UserRecord;
  readonly entry: CompiledEntry;
  readonly returnTo: string;
  /** An OpenID Connect sign-in: what is kept with the session (src/oidc/oidc-sessions.ts). */
  readonly oidc?: OidcSignIn;
}

/** Codes that mean the call itself failed, not the reading of its answer. */
const requestFailures: ReadonlySet<ErrorCode> = new Set([
  'outbound_network',
  'outbound_timeout',
  'outbound_too_large',
  'outbound_address_refused',
  'outbound_busy',
  'response_status',
  'success_condition_failed',
  'template_value_missing',
  'header_invalid',
]);

/** What the caller writes for a sign-in (its session, its audit event), in the user's transaction. */
export type FinishSignIn<T> = (stores: TogetherStores, success: SignInSuccess) => Promise<T>;

/** Refusals inside a step that are reported as themselves, not as the step's failure. */
const oidcStepCodes: ReadonlySet<ErrorCode> = new Set([
  'userinfo_subject_mismatch',
  'id_token_unverified',
]);

/**
 * Flow steps 9 to 15 (docs/design.md#the-sign-in-flow). The callback is validated completely —
 * the pending sign-in consumed atomically and checked against the entry, the
 * browser and the clock — before anything is sent to the third-party server
 * (docs/design.md#single-use-and-browser-binding). Throws SignInError with the step's code.
 *
 * The consumed pending sign-in is committed at once, before the calls out,
 * so that a replayed state finds nothing however long they take. The user's
 * row and what `finish` writes are then one transaction: a failure at any
 * of those steps leaves none of them written.
 */
export async function completeSignIn<T>(
  deps: CompleteSignInDeps,
  entryId: string,
  query: CallbackQuery,
  bindingValue: string | undefined,
  finish: FinishSignIn<T>,
): Promise<T> {
  const entry = await deps.entries.get(entryId);
  if (entry === undefined)
    throw new SignInError('entry_unknown', `no entry ${entryId}`, { entryId });

  const pending = await consumePending(deps, entry, query, bindingValue);
  // Checked after the pending sign-in is consumed: a state is good for one
  // try only, and the error page's "try again" starts a new sign-in.
  const code = single(query.code);
  if (code !== undefined && code !== '' && !isVisibleAscii(code)) {
    throw new SignInError(
      'code_invalid',
      'the code has a control or non-ASCII character (RFC 6749 Appendix A.11: code = 1*VSCHAR)',
      { entryId },
    );
  }
  if (entry.type === 'extension') {
    // Whatever the server calls its code or its error, the extension reads it;
    // a parameter named `code` is an OAuth2 code and was checked above.
    if (!entry.enabled)
      throw new SignInError('entry_disabled', `entry ${entryId} is disabled`, { entryId });
    const mapped = await deps.telemetry.step(entry.id, 'extension', () =>
      extensionCallbackUser(deps, entry, query, pending.redirectUri),
    );
    return finishTogether(deps, entry, mapped, pending, finish);
  }
  const error = single(query.error);
  if (error !== undefined) {
    const description = single(query.error_description);
    throw new SignInError('provider_error', `the server answered error=${error}`, {
      entryId,
      publicDetail: description === undefined ? error : `${error}: ${description}`,
      facts: {
        error: excerpt(maskSecrets(error), 200),
        ...(description === undefined
          ? {}
          : { error_description: excerpt(maskSecrets(description), 200) }),
      },
    });
  }
  if (code === undefined || code === '') {
    throw new SignInError('missing_code', 'the callback carries no single code', { entryId });
  }
  if (!entry.enabled)
    throw new SignInError('entry_disabled', `entry ${entryId} is disabled`, { entryId });

  // RFC 9207: before the code goes anywhere, the response must be this provider's.
  const { oidc } = entry;
  if (oidc !== undefined) {
    onStep(entry, () => {
      checkCallbackIssuer(oidc.discovery, single(query.iss) ?? query.iss);
    });
  }

  const secrets = [entry.appsecret, code].filter((value): value is string => value !== undefined);
  const tokenResponse = await step(deps, entry, 'token', secrets, async () =>
    deps.send(
      buildTokenRequest(entry, {
        code,
        redirectUri: pending.redirectUri,
        codeVerifier: pending.codeVerifier ?? undefined,
      }),
    ),
  );
  const idToken = await verifiedIdTokenOf(deps, entry, tokenResponse, pending, secrets);
  const token = await step(
    deps,
    entry,
    'token',
    secrets,
    () =>
      Promise.resolve(
        processTokenResponse(entry, tokenResponse, {
          secrets,
          ...(idToken === undefined ? {} : { verifiedTokens: idToken.asVerified }),
        }),
      ),

    false,
  );
  secrets.push(token.accessToken, ...Object.values(token.values));
  const mapped = await step(deps, entry, 'userinfo', secrets, async (): Promise<MappedUser> => {
    if (idToken !== undefined && entry.oidc?.userInfo === 'claims') {
      return mapUserFromBody(entry, userInfoBody('claims', idToken.claims, undefined, secrets), {
        secrets,
      });
    }
    const response = await deps.send(buildUserInfoRequest(entry, token));
    if (idToken === undefined || entry.oidc === undefined) {
      return processUserInfoResponse(entry, response, { secrets, tokenValues: token.values });
    }
    checkUserInfoResponse(entry, response, { secrets });
    const body = userInfoBody(entry.oidc.userInfo, idToken.claims, response.body, secrets);
    return mapUserFromBody(entry, body, { secrets, tokenValues: token.values });
  });
  const oidcSignIn: Pick<SignInSuccess, 'oidc'> =
    idToken === undefined
      ? {}
      : {
          oidc: {
            idToken: idToken.token,
            claims: idToken.claims,
            refreshToken: refreshTokenOf(tokenResponse),
          },
        };
  return finishTogether(deps, entry, mapped, pending, finish, oidcSignIn);
}

function finishTogether<T>(
  deps: CompleteSignInDeps,
  entry: CompiledEntry,
  mapped: MappedUser,
  pending: PendingSignIn,
  finish: FinishSignIn<T>,
  oidcSignIn: Pick<SignInSuccess, 'oidc'> = {},
): Promise<T> {
  return deps.storage.writeTogether(async (stores) => {
    const user = await deps.telemetry.span('sign_in.provision', () =>
      provisionUser(stores.users, entry, mapped, deps.clock()),
    );
    return finish(stores, { user, entry, returnTo: pending.returnTo, ...oidcSignIn });
  });
}

/**
 * An OpenID Connect entry's id_token, verified (src/oidc/id-token.ts), when
 * the token call succeeded; undefined for a plain OAuth2 entry, and for a
 * failed call, which the token step then reports under its own code.
 */
async function verifiedIdTokenOf(
  deps: CompleteSignInDeps,
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  pending: PendingSignIn,
  secrets: readonly string[],
): Promise<VerifiedIdToken | undefined> {
  const { oidc } = entry;
  if (oidc === undefined || response.status < 200 || response.status > 299) return undefined;
  try {
    return await verifyIdTokenResponse(deps.oidc, { ...entry, oidc }, response, {
      nonce: pending.nonce ?? null,
      now: deps.clock(),
      secrets,
    });
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(error.code, maskSecrets(error.message, secrets), {
      entryId: entry.id,
      cause: error,
    });
  }
}

/** Runs a check whose coded refusal ends the sign-in under its own code. */
function onStep(entry: CompiledOAuth2Entry, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(error.code, error.message, { entryId: entry.id, cause: error });
  }
}

async function consumePending(
  deps: CompleteSignInDeps,
  entry: CompiledEntry,
  query: CallbackQuery,
  bindingValue: string | undefined,
): Promise<PendingSignIn> {
  const invalid = (reason: string) =>
    new SignInError('state_invalid', reason, { entryId: entry.id });
  const state = single(query.state);
  let key: string;
  if (usesState(entry)) {
    if (state === undefined || state === '') throw invalid('the callback carries no single state');
    // RFC 6749 Appendix A.5: state = 1*VSCHAR. Not one the gateway made, so
    // there is nothing to look up or consume.
    if (!isVisibleAscii(state)) throw invalid('the state has a control or non-ASCII character');
    key = pendingKey(entry, state, '');
  } else {
    // Without a state, only the browser's binding cookie finds its sign-in.
    if (bindingValue === undefined) throw invalid('the browser has no binding cookie');
    key = pendingKey(entry, undefined, bindingValue);
  }
  // Consumed before any other check, so a state is good for one try only,
  // whoever presents it.
  const pending = await deps.storage.pendingSignIns.consume(key);
  if (pending === undefined) {
    throw invalid('no pending sign-in has this state (unknown, used or replayed)');
  }
  if (pending.entryId !== entry.id) throw invalid(`the state belongs to entry ${pending.entryId}`);
  if (bindingValue === undefined || pending.bindingHash !== sha256Base64url(bindingValue)) {
    throw invalid('the state belongs to another browser');
  }
  if (pending.expiresAt <= deps.clock()) throw invalid('the pending sign-in expired');
  return pending;
}

/** Runs a token or user-info step and files its failure under the step's code. */
async function step<T>(
  deps: CompleteSignInDeps,
  entry: CompiledOAuth2Entry,
  which: 'token' | 'userinfo',
  secrets: readonly string[],
  run: () => Promise<T>,
  /** False for reading an answer already timed as its call. */
  timed = true,
): Promise<T> {
  try {
    return await (timed ? deps.telemetry.step(entry.id, which, run) : run());
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    // The OpenID Connect refusals keep their own codes (docs/errors.md#openid-connect).
    if (oidcStepCodes.has(error.code)) {
      throw new SignInError(error.code, maskSecrets(error.message, secrets), {
        entryId: entry.id,
        cause: error,
      });
    }
    const failedCall = requestFailures.has(error.code);
    const code: ErrorCode =
      which === 'token'
        ? failedCall
          ? 'token_request_failed'
          : 'token_parse_failed'
        : failedCall
          ? 'userinfo_request_failed'
          : 'userinfo_parse_failed';
    const message = maskSecrets(error.message, secrets);
    throw new SignInError(code, `${error.code}: ${message}`, {
      entryId: entry.id,
      cause: error,
      facts: causeFacts(which, error, message, secrets),
    });
  }
}

/**
 * The masked cause of a failed step, for the audit trail: the step, the
 * underlying code and message, where in the entry it failed, and what the
 * error found out (status, network code, the server's `error`).
 */
function causeFacts(
  which: 'token' | 'userinfo',
  error: SsogateError,
  maskedMessage: string,
  secrets: readonly string[],
): ErrorFacts {
  const facts: Record<string, string | number> = {
    step: which,
    cause: error.code,
    message: excerpt(maskedMessage, 500),
  };
  if (error.field !== undefined) facts.field = error.field;
  for (const [name, value] of Object.entries(error.facts ?? {})) {
    facts[name] = typeof value === 'string' ? maskSecrets(value, secrets) : value;
  }
  return facts;
}

/** A query parameter given exactly once, or undefined (RFC 6749 §3.1: no repeats). */
function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
