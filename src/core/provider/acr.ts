import type { ProviderRefusalCode } from './refusals.js';

/**
 * The assurance levels the gateway states in `acr` (OpenID Connect Core
 * §2), named by the OpenID PAPE policies they mean
 * (docs/openid-provider.md#assurance-acr):
 * - multi-factor: a second factor was given in this sign-in, of any kind;
 * - phishing-resistant: that factor was a passkey or security key
 *   (WebAuthn), whose signature is bound to the gateway's origin.
 * A sign-in with one factor states none: an entry's sign-in is its
 * provider's to rate, and a value for "the gateway knows nothing more" would
 * tell a client nothing it can act on.
 */
const multiFactorAcr = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
const phishingResistantAcr = 'http://schemas.openid.net/pape/policies/2007/06/phishing-resistant';

/** The values of `acr_values_supported` (OpenID Connect Discovery §3). */
export const supportedAcrValues: readonly string[] = [multiFactorAcr, phishingResistantAcr];

/**
 * The acr values a sign-in's second factor satisfies, strongest first:
 * none without one; a passkey or security key is both.
 */
export function acrSatisfiedBy(factorMethod: string | undefined): readonly string[] {
  if (factorMethod === undefined) return [];
  return factorMethod === 'webauthn' ? [phishingResistantAcr, multiFactorAcr] : [multiFactorAcr];
}

/**
 * What an authorization request asks of the sign-in's assurance: the
 * gateway's values it names, in the client's order of preference, and
 * whether one of them is essential (Core §5.5.1.1) rather than voluntary
 * (`acr_values`, Core §3.1.2.1).
 */
interface AcrRequest {
  readonly values: readonly string[];
  readonly essential: boolean;
}

/** The `acr` member of the `claims` parameter's `id_token` (Core §5.5, §5.5.1). */
interface AcrClaimRequest {
  readonly essential: boolean;
  /** `value` or `values`; undefined when it names none. */
  readonly values: readonly string[] | undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((each) => typeof each === 'string');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `acr` the `claims` parameter asks of the id_token; undefined when it
 * asks none, 'invalid' when it is not the JSON object Core §5.5 describes.
 * Its other members are voluntary claims the gateway answers as it always
 * does (Core §5.5: claims not returned are no error), so only their form
 * as JSON objects is checked.
 */
function acrClaimOf(claims: string | undefined): AcrClaimRequest | undefined | 'invalid' {
  if (claims === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(claims);
  } catch {
    return 'invalid';
  }
  if (!isObject(parsed)) return 'invalid';
  const { id_token: idToken, userinfo } = parsed;
  if (![idToken, userinfo].every((member) => member === undefined || isObject(member))) {
    return 'invalid';
  }
  const acr = isObject(idToken) ? idToken.acr : undefined;
  // `null` asks for the claim in the default manner (Core §5.5.1).
  if (acr === undefined || acr === null) return undefined;
  if (!isObject(acr)) return 'invalid';
  const { essential = false, value, values } = acr;
  if (typeof essential !== 'boolean') return 'invalid';
  if (value !== undefined && typeof value !== 'string') return 'invalid';
  if (values !== undefined && !isStringArray(values)) return 'invalid';
  const named = [...(value === undefined ? [] : [value]), ...(values ?? [])];
  return { essential, values: named.length === 0 ? undefined : named };
}

/**
 * What the request asks of the sign-in's assurance, or the refusal of a
 * `claims` parameter that cannot be read, or of an essential acr none of
 * whose values the gateway states (Core §5.5.1.1: it cannot be satisfied,
 * a failed authentication). `claims`' acr, when it names values, comes
 * before `acr_values`; values the gateway does not know are ignored, a
 * voluntary claim being no condition. An essential acr naming no value asks
 * for any of the gateway's. Undefined when nothing the gateway knows is
 * asked for.
 */
export function acrRequestOf(
  parameters: Readonly<Record<string, string | undefined>>,
): AcrRequest | undefined | { readonly refused: ProviderRefusalCode } {
  const claim = acrClaimOf(parameters.claims);
  if (claim === 'invalid') return { refused: 'provider_claims_invalid' };
  const essential = claim?.essential ?? false;
  const asked =
    claim?.values ??
    (essential
      ? supportedAcrValues
      : (parameters.acr_values ?? '').split(' ').filter((word) => word !== ''));
  const values = [...new Set(asked.filter((value) => supportedAcrValues.includes(value)))];
  if (values.length > 0) return { values, essential };
  return essential ? { refused: 'provider_acr_unsupported' } : undefined;
}

/**
 * The `acr` of an id_token: the first value the client asked for that the
 * sign-in's factor satisfies, else the strongest it satisfies (a voluntary
 * request met with less, or none made), else none.
 */
export function acrClaim(
  requested: readonly string[],
  factorMethod: string | undefined,
): string | undefined {
  const satisfied = acrSatisfiedBy(factorMethod);
  return requested.find((value) => satisfied.includes(value)) ?? satisfied[0];
}
