import { acrRequestOf } from './acr.js';
import type { ProviderRefusalCode } from './refusals.js';

/** An authorization request's parameters, each given once (RFC 6749 §3.1). */
export type AuthorizationParameters = Readonly<Record<string, string | undefined>>;

/** An S256 code challenge: the base64url SHA-256 of the verifier (RFC 7636 §4.2). */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

/** The query's or form's parameters, or 'repeated' when one is given twice (RFC 6749 §3.1). */
export function authorizationParameters(query: unknown): AuthorizationParameters | 'repeated' {
  const parameters: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') return 'repeated';
    parameters[name] = value;
  }
  return parameters;
}

/** The words of `prompt` (OpenID Connect Core §3.1.2.1). */
export function promptsOf(parameters: AuthorizationParameters): string[] {
  return (parameters.prompt ?? '').split(' ').filter((word) => word !== '');
}

/**
 * What is wrong with an authorization request whose client and redirect URI
 * are right, as RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 name it;
 * undefined when nothing is. `publicClient`: the client has no secret, so
 * it must prove itself with PKCE (RFC 7636, RFC 9700 §2.1.1).
 */
export function authorizationRefusal(
  parameters: AuthorizationParameters,
  publicClient: boolean,
): ProviderRefusalCode | undefined {
  if (parameters.request !== undefined) return 'provider_request_not_supported';
  if (parameters.request_uri !== undefined) return 'provider_request_uri_not_supported';
  if (![undefined, 'query', 'form_post'].includes(parameters.response_mode)) {
    // A fragment carries the code in no request to the server; any other mode is unknown.
    return 'provider_response_mode_unsupported';
  }
  if (parameters.response_type !== 'code') return 'provider_unsupported_response_type';
  if (!(parameters.scope ?? '').split(' ').includes('openid')) {
    return 'provider_scope_without_openid';
  }
  const challenge = parameters.code_challenge;
  if (challenge === undefined) {
    if (publicClient) return 'provider_pkce_missing';
    if (parameters.code_challenge_method !== undefined) return 'provider_pkce_method_alone';
  } else if (parameters.code_challenge_method !== 'S256' || !s256Challenge.test(challenge)) {
    return 'provider_pkce_challenge_invalid';
  }
  const prompts = promptsOf(parameters);
  if (prompts.some((prompt) => !['none', 'login', 'consent'].includes(prompt))) {
    return 'provider_prompt_unknown';
  }
  if (prompts.includes('none') && prompts.length > 1) return 'provider_prompt_none_combined';
  if (parameters.max_age !== undefined && !/^\d{1,9}$/.test(parameters.max_age)) {
    return 'provider_max_age_invalid';
  }
  const acr = acrRequestOf(parameters);
  return acr !== undefined && 'refused' in acr ? acr.refused : undefined;
}
