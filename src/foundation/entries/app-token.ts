import type { CompiledOAuth2Entry } from '../../core/index.js';
import {
  SignInError,
  buildAppTokenRequest,
  isSsogateError,
  maskSecrets,
  processAppTokenResponse,
} from '../../core/index.js';
import { sha256Base64url } from '../crypto/hash.js';
import type { Telemetry } from '../observability/telemetry.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';
import type { AppTokenStore } from '../storage/types.js';

export interface AppTokenDeps {
  readonly appTokens: AppTokenStore;
  readonly send: SendOutbound;
  readonly clock: () => number;
  /** Times the call in the step-duration metric (`app_token`); a cached token is not a call. */
  readonly telemetry?: Telemetry;
}

/** The application token and whether it came from the cache (a refusal then drops it). */
interface AppToken {
  readonly token: string;
  readonly fromCache: boolean;
}

/**
 * A token is renewed this long before the end the server gave, so that it
 * does not expire between being read here and reaching the server.
 */
function renewalMarginMs(lifetimeMs: number): number {
  return Math.min(5 * 60_000, Math.floor(lifetimeMs / 10));
}

/**
 * The entry's application token (docs/entries.md#the-application-token):
 * the cached one while it lives, else a fresh one from the appToken call,
 * stored for every instance. The fingerprint covers what fetched it (the
 * call, appid, appsecret), so an edited entry fetches anew.
 */
export async function appTokenFor(
  deps: AppTokenDeps,
  entry: CompiledOAuth2Entry,
): Promise<AppToken | undefined> {
  if (entry.shapes.appToken === undefined) return undefined;
  const fingerprint = sha256Base64url(
    JSON.stringify([entry.input.appToken, entry.appid ?? null, entry.appsecret ?? null]),
  );
  const now = deps.clock();
  const cached = await deps.appTokens.get(entry.id);
  if (cached !== undefined && cached.fingerprint === fingerprint && cached.expiresAt > now) {
    return { token: cached.token, fromCache: true };
  }
  const secrets = [entry.appsecret].filter((value): value is string => value !== undefined);
  let fresh;
  try {
    const call = () => deps.send(buildAppTokenRequest(entry));
    const response = await (deps.telemetry === undefined
      ? call()
      : deps.telemetry.step(entry.id, 'app_token', call));
    fresh = processAppTokenResponse(entry, response, { secrets });
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(
      'app_token_failed',
      `${error.code}: ${maskSecrets(error.message, secrets)}`,
      {
        entryId: entry.id,
        cause: error,
      },
    );
  }
  const lifetimeMs = fresh.lifetimeSeconds * 1000;
  await deps.appTokens.put(entry.id, {
    token: fresh.token,
    fingerprint,
    expiresAt: now + lifetimeMs - renewalMarginMs(lifetimeMs),
  });
  return { token: fresh.token, fromCache: false };
}

/** After the server refused a call that carried the token: the next sign-in fetches anew. */
export async function dropAppToken(
  appTokens: AppTokenStore,
  entry: CompiledOAuth2Entry,
  appToken: AppToken | undefined,
): Promise<void> {
  if (appToken !== undefined) await appTokens.drop(entry.id, appToken.token);
}
