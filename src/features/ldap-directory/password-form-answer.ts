import type { AddressPolicy } from '../../foundation/outbound/address-policy.js';

/** What the gateway's password form carries to an LDAP source (src/features/sign-in/ldap-password-form.ts). */
export interface TypedCredentials {
  readonly username: string;
  readonly password: string;
  /** The address policy of the gateway that received the form. */
  readonly policy: AddressPolicy;
  /** Set by the source from the consumed pending sign-in: where a retry of the form lands after. */
  returnTo?: string;
}

const typed = new WeakMap<object, TypedCredentials>();

/**
 * The callback fields of a posted password form: the state alone, the
 * credentials kept beside it, out of every trace and log of the fields.
 * Only fields made here carry credentials: a callback reaching an LDAP entry
 * any other way (GET or POST /_sso/callback/{id}) has none, and signs no one
 * in, so no route but the form's, with its token and its limits, checks a
 * password.
 */
export function passwordFormFields(
  state: string,
  credentials: TypedCredentials,
): Readonly<Record<string, unknown>> {
  const fields = Object.freeze({ state });
  typed.set(fields, credentials);
  return fields;
}

/** The credentials a password form's fields carry, or undefined for any other fields. */
export function typedCredentials(
  fields: Readonly<Record<string, unknown>>,
): TypedCredentials | undefined {
  return typed.get(fields);
}
