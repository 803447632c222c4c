import type { CompiledOAuth2Entry, ThirdPartyResponse } from '../../core/index.js';
import {
  SsogateError,
  buildRefreshRequest,
  buildUserInfoRequest,
  checkIssuerAndAudience,
  isSsogateError,
  processRefreshResponse,
  readUserInfo,
  scopedUserId,
} from '../../core/index.js';
import type { EntryRegistry } from '../../foundation/entries/entry-registry.js';
import type { ProviderMetadata } from '../../foundation/oidc/provider-metadata.js';
import { verifyProviderJwt } from '../../foundation/oidc/verify-jwt.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import type { AppTokenDeps } from '../../foundation/entries/app-token.js';
import { appTokenFor, dropAppToken } from '../../foundation/entries/app-token.js';
import type {
  OidcSessionRecord,
  OidcSessionStore,
  SessionRecord,
  UserInfoAccess,
} from '../../foundation/storage/types.js';

export interface RevalidationDeps extends AppTokenDeps {
  readonly entries: EntryRegistry;
  readonly oidcSessions: OidcSessionStore;
  readonly oidc: ProviderMetadata;
  readonly send: SendOutbound;
  readonly clock: () => number;
  /** Told why a session ended or was kept through an outage, for the log. */
  readonly report?: (sessionEntryId: string, code: string, message: string) => void;
}

/** What a re-check concluded. */
type Verdict = 'valid' | 'refused' | 'unreachable';

/**
 * Re-validation of a session (docs/entries.md#re-validation): when the entry
 * sets `oidc.revalidateMinutes` or `revalidateMinutes` and that long has
 * passed since the provider last vouched for the session, an OpenID Connect
 * session's refresh token is exchanged again and the user-info answer mapped
 * again; without a refresh token, the user-info call is made again with the
 * sign-in's access token. A refusal
 * (the grant revoked, the account gone), a user whose `enabled` attribute is
 * now false, or another subject ends the session; the provider being
 * unreachable keeps it for `oidc.revalidateGraceMinutes` past the due time.
 * Resolves whether the session may go on. An oauth2 entry's sign-in source
 * asks for it (src/features/sign-in/sources/oauth2-template-source.ts).
 */
export async function revalidateSession(
  deps: RevalidationDeps,
  entry: CompiledOAuth2Entry,
  session: SessionRecord,
): Promise<boolean> {
  if (entry.revalidation === undefined) return true;
  const { intervalMs, graceMs } = entry.revalidation;
  const now = deps.clock();
  const kept = await deps.oidcSessions.get(session.idHash);
  if (kept === undefined || now - kept.checkedAt < intervalMs) return true;
  let verdict: Verdict;
  if (entry.oidc !== undefined && kept.refreshToken !== null) {
    verdict = await recheck(deps, entry, kept);
  } else if (kept.userInfoAccess !== null && entry.oidc?.userInfo !== 'claims') {
    verdict = await recheckUserInfo(deps, entry, kept, kept.userInfoAccess);
  } else {
    return true; // nothing to re-check with: documented
  }
  if (verdict === 'valid') return true;
  if (verdict === 'unreachable') return now - kept.checkedAt < intervalMs + graceMs;
  await deps.oidcSessions.delete(session.idHash);
  return false;
}

/**
 * Re-checks with the access token the sign-in got (docs/entries.md#re-validation):
 * the entry's user-info call made again, as at the sign-in, with the token
 * answer's named values; its answer mapped again. A refusal (a status other
 * than 200 below 500, the success condition failing), another user, or
 * `enabled` now false ends the session; no answer, or a 5xx, is the
 * provider unreachable.
 */
async function recheckUserInfo(
  deps: RevalidationDeps,
  entry: CompiledOAuth2Entry,
  kept: OidcSessionRecord,
  access: UserInfoAccess,
): Promise<Verdict> {
  const report = (code: string, message: string) => deps.report?.(entry.id, code, message);
  const secrets = [access.accessToken, ...Object.values(access.values)];
  let appToken: Awaited<ReturnType<typeof appTokenFor>>;
  const response = await answerOrUnreachable(report, 'the user-info call', async () => {
    appToken = await appTokenFor(deps, entry);
    if (appToken !== undefined) secrets.push(appToken.token);
    return deps.send(
      buildUserInfoRequest(entry, {
        accessToken: access.accessToken,
        code: undefined,
        appToken: appToken?.token,
        named: access.values,
      }),
    );
  });
  if (response === 'unreachable') return response;
  try {
    const user =
      entry.oidc === undefined
        ? readUserInfo(entry, response, { secrets, tokenValues: access.values }).user
        : readOidcUserInfo(entry, kept, response, access.accessToken);
    if (user.enabled === false) {
      report('user_disabled', 'the provider now says the user is disabled');
      return 'refused';
    }
    const userId =
      entry.oidc === undefined
        ? scopedUserId(entry.provisioning.userIdScope, entry.id, user.userId)
        : kept.subject;
    if (userId !== kept.subject) {
      report('userinfo_subject_mismatch', 'the user-info call now describes another user');
      return 'refused';
    }
  } catch (error) {
    if (appToken !== undefined && isSsogateError(error)) {
      await dropAppToken(deps.appTokens, entry, appToken);
    }
    report(
      'session_revalidation_refused',
      `the provider refused the re-check (${isSsogateError(error) ? error.code : 'unreadable'}: status ${response.status})`,
    );
    return 'refused';
  }
  await deps.oidcSessions.checked(kept.sessionHash, deps.clock());
  return 'valid';
}

/**
 * The answer to a re-check's call, or 'unreachable' (reported) when `call`
 * threw or `who` answered with a 5xx: an outage keeps the session for the
 * grace period rather than ending it.
 */
async function answerOrUnreachable(
  report: (code: string, message: string) => void,
  who: string,
  call: () => Promise<ThirdPartyResponse>,
): Promise<ThirdPartyResponse | 'unreachable'> {
  let response: ThirdPartyResponse;
  try {
    response = await call();
  } catch (error) {
    report(
      isSsogateError(error) ? error.code : 'outbound_network',
      'the provider did not answer the re-check',
    );
    return 'unreachable';
  }
  if (response.status >= 500) {
    report('response_status', `${who} answered ${response.status} to the re-check`);
    return 'unreachable';
  }
  return response;
}

/** An OpenID Connect user-info answer, checked against the session's subject and mapped. */
function readOidcUserInfo(
  entry: CompiledOAuth2Entry,
  kept: OidcSessionRecord,
  response: ThirdPartyResponse,
  accessToken: string,
) {
  return readUserInfo(entry, response, {
    secrets: [accessToken],
    verified: { claims: { sub: kept.subject }, source: 'userinfo' },
  }).user;
}

async function recheck(
  deps: RevalidationDeps,
  entry: CompiledOAuth2Entry,
  kept: OidcSessionRecord,
): Promise<Verdict> {
  const oidc = entry.oidc;
  if (oidc === undefined || kept.refreshToken === null) return 'valid';
  const report = (code: string, message: string) => deps.report?.(entry.id, code, message);
  const refreshToken = kept.refreshToken;
  const response = await answerOrUnreachable(report, 'the provider', () =>
    deps.send(buildRefreshRequest(entry, refreshToken)),
  );
  if (response === 'unreachable') return response;
  if (response.status !== 200) {
    report(
      'session_revalidation_refused',
      `the provider refused the refresh token (${response.status})`,
    );
    return 'refused';
  }
  try {
    const tokens = processRefreshResponse(response, { secrets: [refreshToken] });
    const { accessToken } = tokens;
    if (tokens.idToken !== undefined) {
      // OpenID Connect Core §12.2: a refreshed id_token is about the same subject.
      const claims = await verifyProviderJwt(
        deps.oidc,
        oidc.discovery,
        tokens.idToken,
        'id_token_invalid_signature',
      );
      checkIssuerAndAudience(
        claims,
        { issuer: oidc.issuer, clientId: entry.appid ?? '' },
        'id_token',
      );
      if (claims.sub !== kept.subject)
        throw new SsogateError(
          'userinfo_subject_mismatch',
          'the refreshed id_token is about another subject',
        );
    }
    if (oidc.userInfo !== 'claims' && accessToken !== undefined) {
      const answer = await deps.send(
        buildUserInfoRequest(entry, {
          accessToken,
          code: undefined,
          appToken: undefined,
          named: {},
        }),
      );
      if (answer.status !== 200) {
        report('session_revalidation_refused', `the user-info call answered ${answer.status}`);
        return answer.status >= 500 ? 'unreachable' : 'refused';
      }
      const user = readOidcUserInfo(entry, kept, answer, accessToken);
      if (user.enabled === false) {
        report('user_disabled', 'the provider now says the user is disabled');
        return 'refused';
      }
    }
    await deps.oidcSessions.checked(kept.sessionHash, deps.clock(), tokens.refreshToken);
    return 'valid';
  } catch (error) {
    report(
      isSsogateError(error) ? error.code : 'session_revalidation_refused',
      'the re-check failed',
    );
    return 'refused';
  }
}
