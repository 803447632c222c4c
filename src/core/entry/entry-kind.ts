import type { EntryInput } from './entry-input.js';

/**
 * The entry model's own reading of an input's kind. The kinds of sign-in
 * source behave in src/features/sign-in/sources/; what stays here is what
 * the model itself defines and the layers below the features need before
 * any source exists: the type an input declares, and the issuer an oauth2
 * entry's `oidc` block names (docs/entries.md#openid-connect).
 */
export function entryTypeOf(input: EntryInput): 'oauth2' | 'extension' | 'ldap' | 'saml' {
  return input.type ?? 'oauth2';
}

/**
 * The OpenID Provider whose discovery document an entry is compiled with:
 * an oauth2 entry's `oidc.issuer`. Another kind's `oidc` block is
 * never read, so it names none.
 */
export function discoveryIssuerOf(input: EntryInput): string | undefined {
  return entryTypeOf(input) === 'oauth2' ? input.oidc?.issuer : undefined;
}
