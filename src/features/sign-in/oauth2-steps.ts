import type { SamlSignIn } from '../saml/saml-response.js';
import type {
  CompiledOAuth2Entry,
  ErrorCode,
  ErrorFacts,
  MappedUser,
  SsogateError,
  StepValues,
  ThirdPartyResponse,
  UserInfoAnswer,
  UserInfoOptions,
  UserInfoReport,
} from '../../core/index.js';
import {
  SignInError,
  buildTokenRequest,
  buildUserInfoCallRequest,
  buildUserInfoRequest,
  excerpt,
  isSsogateError,
  maskSecrets,
  processTokenResponse,
  processUserInfoCallResponse,
  readUserInfo,
} from '../../core/index.js';
import type { Telemetry } from '../../foundation/observability/telemetry.js';
import type { VerifiedIdToken } from '../../foundation/oidc/id-token.js';
import { verifyIdTokenResponse } from '../../foundation/oidc/id-token.js';
import type { OidcSignIn } from '../../foundation/oidc/oidc-sign-in.js';
import type { ProviderMetadata } from '../../foundation/oidc/provider-metadata.js';
import type { PendingSignIn, UserInfoAccess } from '../../foundation/storage/types.js';
import type { AppTokenDeps } from '../../foundation/entries/app-token.js';
import { appTokenFor, dropAppToken } from '../../foundation/entries/app-token.js';

interface OAuth2StepDeps extends AppTokenDeps {
  readonly oidc: ProviderMetadata;
  readonly telemetry: Telemetry;
  /** Told what the steps do, for an administrator's test sign-in (src/features/trial-sign-in/run-trial.ts). */
  readonly observer?: StepObserver;
}

/** What a test sign-in learns while the steps run, to name its calls and mask its trace. */
export interface StepObserver {
  /** The step about to run: `token`, `userinfo`, or `userinfo` with `call NAME: `. */
  step(which: 'token' | 'userinfo', detail: string): void;
  /** The values never to show, growing as tokens are read; the same array throughout. */
  secrets(values: readonly string[]): void;
  /** The values read from the token response, for the trace's token step. */
  tokenValues(values: Readonly<Record<string, string>>): void;
  /** Each user-info mapping line's outcome, from the read the sign-in itself made. */
  userInfoReport(report: UserInfoReport): void;
}

/** The user an OAuth2 entry's calls describe, and an OpenID Connect sign-in's tokens. */
export interface SignedInUser {
  readonly mapped: MappedUser;
  readonly oidc: OidcSignIn | undefined;
  /** Present when the entry re-checks sessions by calling user info again. */
  readonly access?: UserInfoAccess;
  /** A SAML sign-in's NameID and SessionIndex, kept for its logout. */
  readonly saml?: SamlSignIn;
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

/** Refusals inside a step that are reported as themselves, not as the step's failure. */
const oidcStepCodes: ReadonlySet<ErrorCode> = new Set([
  'userinfo_subject_mismatch',
  'id_token_unverified',
]);

/** Codes by which a server refuses what it was sent, an application token included. */
const refusals: ReadonlySet<ErrorCode> = new Set(['response_status', 'success_condition_failed']);

/**
 * Flow steps 11 to 14 of an OAuth2 entry (docs/design.md#the-sign-in-flow),
 * with the shapes of docs/entries.md#shapes-beyond-the-basic-flow: the
 * application token first, the code exchange unless the entry reads the user
 * with the code itself (an OpenID Connect entry's id_token verified with it),
 * the user-info call or the verified claims, then the calls after it, each
 * adding the values it reads for the next.
 */
export async function readSignedInUser(
  deps: OAuth2StepDeps,
  entry: CompiledOAuth2Entry,
  code: string,
  pending: PendingSignIn,
): Promise<SignedInUser> {
  const secrets = [entry.appsecret, code].filter((value): value is string => value !== undefined);
  const appToken = await appTokenFor(deps, entry);
  if (appToken !== undefined) secrets.push(appToken.token);
  deps.observer?.secrets(secrets);
  const run = <T>(
    which: 'token' | 'userinfo',
    detail: string,
    work: () => Promise<T>,
    timed = true,
  ): Promise<T> => {
    deps.observer?.step(which, detail);
    return step(deps.telemetry, entry, { which, detail, secrets, timed }, work, async (error) => {
      // A refusal may mean the token was revoked or expired early: forget it.
      if (refusals.has(error)) await dropAppToken(deps.appTokens, entry, appToken);
    });
  };

  let values: StepValues = {
    accessToken: undefined,
    code: entry.shapes.codeInUserInfo ? code : undefined,
    appToken: appToken?.token,
    named: {},
  };
  let tokenValues: Readonly<Record<string, string>> | undefined;
  let idToken: VerifiedIdToken | undefined;
  if (entry.shapes.tokenExchange) {
    const response = await run('token', '', () =>
      deps.send(
        buildTokenRequest(entry, {
          code,
          redirectUri: pending.redirectUri,
          codeVerifier: pending.codeVerifier ?? undefined,
          appToken: appToken?.token,
        }),
      ),
    );
    idToken = await verifiedIdTokenOf(deps, entry, response, pending, secrets);
    const verified = idToken?.asVerified;
    // Reading the answer is not timed again: its call was.
    const token = await run(
      'token',
      '',
      () =>
        Promise.resolve(
          processTokenResponse(entry, response, {
            secrets,
            ...(verified === undefined ? {} : { verifiedTokens: verified }),
          }),
        ),
      false,
    );
    secrets.push(...[token.accessToken, ...Object.values(token.values)].filter(Boolean));
    tokenValues = token.values;
    deps.observer?.tokenValues(token.values);
    values = { ...values, accessToken: token.accessToken, named: token.values };
  }
  const options: UserInfoOptions = {
    secrets,
    tokenValues,
    verified:
      idToken === undefined || entry.oidc === undefined
        ? undefined
        : { claims: idToken.claims, source: entry.oidc.userInfo },
  };
  const answer = await run('userinfo', '', async () => {
    const response =
      options.verified?.source === 'claims'
        ? undefined
        : await deps.send(buildUserInfoRequest(entry, values));
    return readUserInfoFor(deps.observer, entry, response, options);
  });
  let user = answer.user;
  values = { ...values, named: { ...values.named, ...answer.values } };
  for (const call of entry.shapes.userInfoCalls) {
    const current = values;
    const result = await run('userinfo', `call ${call.name}: `, async () =>
      processUserInfoCallResponse(
        call,
        user,
        await deps.send(buildUserInfoCallRequest(entry, call, current)),
        { secrets },
      ),
    );
    user = result.user;
    values = { ...values, named: { ...values.named, ...result.values } };
  }
  const accessToken = values.accessToken;
  return {
    mapped: user,
    ...(entry.revalidation === undefined || accessToken === undefined || accessToken === ''
      ? {}
      : { access: { accessToken, values: tokenValues ?? {} } }),
    oidc:
      idToken === undefined
        ? undefined
        : { idToken: idToken.token, claims: idToken.claims, refreshToken: idToken.refreshToken },
  };
}

/** The user-info answer read, and reported to a test sign-in's observer when there is one. */
function readUserInfoFor(
  observer: StepObserver | undefined,
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse | undefined,
  options: UserInfoOptions,
): UserInfoAnswer {
  if (observer === undefined) return readUserInfo(entry, response, { ...options, report: false });
  const report = readUserInfo(entry, response, { ...options, report: true });
  observer.userInfoReport(report);
  if ('error' in report.result) throw report.result.error;
  return report.result.answer;
}

/**
 * An OpenID Connect entry's id_token, verified (src/foundation/oidc/id-token.ts), when
 * the token call succeeded; undefined for a plain OAuth2 entry, and for a
 * failed call, which the token step then reports under its own code.
 */
async function verifiedIdTokenOf(
  deps: OAuth2StepDeps,
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

interface StepOptions {
  readonly which: 'token' | 'userinfo';
  /** Names a call after user info in the message. */
  readonly detail: string;
  readonly secrets: readonly string[];
  /** False for reading an answer already timed as its call. */
  readonly timed: boolean;
}

/** Runs a token or user-info step and files its failure under the step's code. */
async function step<T>(
  telemetry: Telemetry,
  entry: CompiledOAuth2Entry,
  { which, detail, secrets, timed }: StepOptions,
  run: () => Promise<T>,
  onFailure: (code: ErrorCode) => Promise<void>,
): Promise<T> {
  try {
    return await (timed ? telemetry.step(entry.id, which, run) : run());
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    await onFailure(error.code);
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
    throw new SignInError(code, `${detail}${error.code}: ${message}`, {
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
