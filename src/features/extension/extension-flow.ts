import type { z } from 'zod';
import type {
  AuthorizationRequest,
  CompiledExtensionEntry,
  JsonValue,
  MappedUser,
} from '../../core/index.js';
import {
  SignInError,
  callbackUrl,
  coerceAttribute,
  isSsogateError,
  maskSecrets,
  randomToken,
} from '../../core/index.js';
import type { ExtensionClientDeps } from './client.js';
import { callExtension } from './client.js';
import { ExtensionAnswerError } from './extension-error.js';
import type { AuthorizeUrlRequest, CallbackRequest, ExtensionUser } from './schemas.js';
import { authorizeUrlAnswer, callbackAnswer } from './schemas.js';

/** The same bound the gateway puts on attributes without a column from any server. */
const maxExtraJsonLength = 64 * 1024;

/**
 * Flow step 2 for an entry of type extension: the gateway makes the state
 * and the redirect URI, as for any entry, and asks the extension for the URL
 * to send the browser to. The extension never sees the browser, the binding
 * cookie or the return-to.
 */
export async function extensionAuthorizationRequest(
  deps: ExtensionClientDeps,
  entry: CompiledExtensionEntry,
  publicUrl: string,
  stateBytes?: number,
): Promise<AuthorizationRequest> {
  const state = randomToken(deps.random, stateBytes);
  const redirectUri = callbackUrl(publicUrl, entry.id);
  const body: AuthorizeUrlRequest = {
    entryId: entry.id,
    state,
    redirectUri,
    ...(entry.appid === undefined ? {} : { appid: entry.appid }),
    settings: entry.extension.settings,
  };
  const answer = await post(deps, entry, '/authorize-url', body, authorizeUrlAnswer);
  const url = URL.canParse(answer.url) ? new URL(answer.url) : undefined;
  // The browser is sent there: only a web address, never javascript: or data:.
  if (url === undefined || !/^https?:$/.test(url.protocol) || url.username !== '') {
    throw new SignInError(
      'extension_bad_answer',
      "the extension's /authorize-url answered a url that is not an absolute http(s) URL",
      { entryId: entry.id },
    );
  }
  return { url: url.href, state, redirectUri, codeVerifier: undefined };
}

/**
 * Flow steps 11 to 14 for an entry of type extension, after the gateway has
 * consumed the pending sign-in: the callback's whole query goes to the
 * extension, whatever the server calls its code, and the user comes back.
 */
export async function extensionCallbackUser(
  deps: ExtensionClientDeps,
  entry: CompiledExtensionEntry,
  query: Readonly<Record<string, unknown>>,
  redirectUri: string,
): Promise<MappedUser> {
  const body: CallbackRequest = {
    entryId: entry.id,
    redirectUri,
    query: plainQuery(query),
    ...(entry.appid === undefined ? {} : { appid: entry.appid }),
    ...(entry.appsecret === undefined ? {} : { appsecret: entry.appsecret }),
    settings: entry.extension.settings,
  };
  const answer = await post(deps, entry, '/callback', body, callbackAnswer);
  return mappedUser(entry, answer.user);
}

/** One call of the flow, with the entry's time-out; a failure is filed under the entry. */
async function post<S extends z.ZodType>(
  deps: ExtensionClientDeps,
  entry: CompiledExtensionEntry,
  route: string,
  body: AuthorizeUrlRequest | CallbackRequest,
  answer: S,
): Promise<z.output<S>> {
  try {
    return await callExtension(deps, entry.extension, {
      method: 'POST',
      route,
      body,
      answer,
      timeoutMs: entry.timeoutMs,
    });
  } catch (error) {
    // The secrets that went out are masked from anything logged.
    if (!isSsogateError(error)) throw error;
    const secrets = [entry.appsecret, entry.extension.secret].filter(
      (value): value is string => value !== undefined,
    );
    throw new SignInError(error.code, maskSecrets(error.message, secrets), {
      entryId: entry.id,
      cause: error,
      ...(error instanceof ExtensionAnswerError
        ? { publicDetail: maskSecrets(error.extensionMessage, secrets) }
        : {}),
    });
  }
}

/** Fastify's parsed query, reduced to what the contract sends: strings and lists of strings. */
function plainQuery(query: Readonly<Record<string, unknown>>): Record<string, string | string[]> {
  const plain: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string') plain[name] = value;
    else if (Array.isArray(value)) plain[name] = value.filter((item) => typeof item === 'string');
  }
  return plain;
}

/**
 * The user as the rest of the flow expects it, built key by key (as
 * core/user does) so no answer can add a property or a prototype.
 */
function mappedUser(entry: CompiledExtensionEntry, user: ExtensionUser): MappedUser {
  if (user.userId.trim() === '') {
    throw new SignInError('extension_bad_answer', "the extension's user has an empty userId", {
      entryId: entry.id,
    });
  }
  for (const attribute of ['userId', 'userName', 'email', 'mobile', 'department'] as const) {
    checkText(entry, attribute, user[attribute]);
  }
  const extra = Object.create(null) as Record<string, JsonValue>;
  for (const [key, value] of Object.entries(user.extra ?? {})) extra[key] = value as JsonValue;
  if (JSON.stringify(extra).length > maxExtraJsonLength) {
    throw new SignInError(
      'extension_bad_answer',
      `the extension's user.extra takes more than ${maxExtraJsonLength} characters as JSON`,
      { entryId: entry.id },
    );
  }
  return {
    userId: user.userId,
    ...(user.userName === undefined ? {} : { userName: user.userName }),
    ...(user.email === undefined ? {} : { email: user.email }),
    ...(user.mobile === undefined ? {} : { mobile: user.mobile }),
    ...(user.department === undefined ? {} : { department: user.department }),
    ...(user.enabled === undefined ? {} : { enabled: user.enabled }),
    extra,
  };
}

/**
 * The checks a mapped user's text gets (core/user/coerce.ts): no control
 * character in userId or email, no lone surrogate anywhere.
 */
function checkText(
  entry: CompiledExtensionEntry,
  attribute: 'userId' | 'userName' | 'email' | 'mobile' | 'department',
  value: string | undefined,
): void {
  if (value === undefined) return;
  try {
    coerceAttribute(attribute, value);
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(error.code, `the extension's user: ${error.message}`, {
      entryId: entry.id,
      cause: error,
    });
  }
}
