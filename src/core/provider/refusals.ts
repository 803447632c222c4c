import type { ErrorCode } from '../errors/index.js';
import { errorRegistry, isErrorCode } from '../errors/index.js';

/** The codes of the registry that are refusals of the OpenID Provider, in OAuth's form. */
export type ProviderRefusalCode = {
  [C in ErrorCode]: (typeof errorRegistry)[C] extends { readonly oauth: object } ? C : never;
}[ErrorCode];

/** A refusal as its client is answered, and the code its audit event carries. */
export interface ProviderRefusal {
  readonly code: ProviderRefusalCode;
  /** The HTTP status: the JSON error's, or the redirect's that carries it to the client. */
  readonly status: number;
  /** The OAuth `error` (RFC 6749 §4.1.2.1, §5.2; RFC 6750 §3.1; OpenID Connect Core §3.1.2.6). */
  readonly error: string;
  readonly description: string;
  readonly auditCode: ErrorCode;
}

/**
 * The refusal of a code, from the one registry (src/core/errors/registry.ts):
 * an endpoint of the provider never writes an `error` or a description of
 * its own (src/features/openid-provider/inline-oauth-errors.test.ts).
 */
export function providerRefusal(code: ProviderRefusalCode): ProviderRefusal {
  const { status, oauth } = errorRegistry[code];
  const audited = 'auditedAs' in oauth ? oauth.auditedAs : undefined;
  return {
    code,
    status,
    error: oauth.error,
    description: oauth.description,
    auditCode: audited !== undefined && isErrorCode(audited) ? audited : code,
  };
}
