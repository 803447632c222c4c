import type { CompiledOAuth2Entry, ErrorCode, MappedUser, StepValues } from '../core/index.js';
import {
  SignInError,
  buildShapedUserInfoRequest,
  buildTokenRequest,
  buildUserInfoCallRequest,
  isSsogateError,
  maskSecrets,
  processTokenResponse,
  processUserInfoAnswer,
  processUserInfoCallResponse,
} from '../core/index.js';
import type { PendingSignIn } from '../storage/types.js';
import type { AppTokenDeps } from './app-token.js';
import { appTokenFor, dropAppToken } from './app-token.js';

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

/** Codes by which a server refuses what it was sent, an application token included. */
const refusals: ReadonlySet<ErrorCode> = new Set(['response_status', 'success_condition_failed']);

/**
 * Flow steps 11 to 14 of an OAuth2 entry (docs/design.md#the-sign-in-flow),
 * with the shapes of docs/entries.md#shapes-beyond-the-basic-flow: the
 * application token first, the code exchange unless the entry reads the user
 * with the code itself, the user-info call, then the calls after it, each
 * adding the values it reads for the next.
 */
export async function readSignedInUser(
  deps: AppTokenDeps,
  entry: CompiledOAuth2Entry,
  code: string,
  pending: PendingSignIn,
): Promise<MappedUser> {
  const secrets = [entry.appsecret, code].filter((value): value is string => value !== undefined);
  const appToken = await appTokenFor(deps, entry);
  if (appToken !== undefined) secrets.push(appToken.token);
  const run = <T>(which: 'token' | 'userinfo', detail: string, work: () => Promise<T>) =>
    step(entry, which, detail, secrets, work, async (error) => {
      // A refusal may mean the token was revoked or expired early: forget it.
      if (refusals.has(error)) await dropAppToken(deps.appTokens, entry, appToken);
    });

  let values: StepValues = {
    accessToken: undefined,
    code: entry.shapes.codeInUserInfo ? code : undefined,
    appToken: appToken?.token,
    named: {},
  };
  if (entry.shapes.tokenExchange) {
    const token = await run('token', '', async () => {
      const request = buildTokenRequest(entry, {
        code,
        redirectUri: pending.redirectUri,
        codeVerifier: pending.codeVerifier ?? undefined,
        appToken: appToken?.token,
      });
      return processTokenResponse(entry, await deps.send(request), { secrets });
    });
    secrets.push(token.accessToken, ...Object.values(token.values));
    values = { ...values, accessToken: token.accessToken, named: token.values };
  }
  const answer = await run('userinfo', '', async () =>
    processUserInfoAnswer(entry, await deps.send(buildShapedUserInfoRequest(entry, values)), {
      secrets,
    }),
  );
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
  return user;
}

/** Runs a token or user-info step and files its failure under the step's code. */
async function step<T>(
  entry: CompiledOAuth2Entry,
  which: 'token' | 'userinfo',
  detail: string,
  secrets: readonly string[],
  run: () => Promise<T>,
  onFailure: (code: ErrorCode) => Promise<void>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    await onFailure(error.code);
    const failedCall = requestFailures.has(error.code);
    const code: ErrorCode =
      which === 'token'
        ? failedCall
          ? 'token_request_failed'
          : 'token_parse_failed'
        : failedCall
          ? 'userinfo_request_failed'
          : 'userinfo_parse_failed';
    throw new SignInError(code, `${detail}${error.code}: ${maskSecrets(error.message, secrets)}`, {
      entryId: entry.id,
      cause: error,
    });
  }
}
