import type { Expression } from '../expression/index.js';
import type { CompiledHeader, CompiledTemplate } from '../template/index.js';
import type { AttributeMapping } from '../user/map-user.js';
import type { EntryInput } from './entry-input.js';

/** How one outbound call (token or user-info) is shaped, beyond its URL. */
export interface CompiledCall {
  readonly template: CompiledTemplate;
  readonly headers: readonly CompiledHeader[];
  readonly bodyEncoding: 'json' | 'form';
  readonly successCondition: Expression | undefined;
}

export interface CompiledTokenCall extends CompiledCall {
  readonly clientAuthentication: 'none' | 'basic';
}

/** A value taken from the token response, usable as `${name}` in the user-info call. */
export interface TokenValue {
  readonly name: string;
  readonly expression: Expression;
}

export interface ProvisioningPolicy {
  readonly createUsers: boolean;
  readonly updateOnSignIn: boolean;
  readonly adoptExistingUsers: boolean;
}

/**
 * An entry whose templates and expressions were parsed once, at save time.
 * It holds the app secret because the token call needs it: it is an internal
 * object, and presenters never serialise it whole.
 */
export interface CompiledEntry {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly isDefault: boolean;
  readonly appid: string | undefined;
  readonly appsecret: string | undefined;
  readonly authorize: CompiledTemplate;
  readonly token: CompiledTokenCall;
  readonly tokenParse: Expression;
  readonly tokenValues: readonly TokenValue[];
  readonly userInfo: CompiledCall;
  /** Empty: the seed's "empty" case, the object under `user` is the user. */
  readonly userInfoParse: readonly AttributeMapping[];
  readonly logout: CompiledTemplate | undefined;
  readonly pkce: boolean;
  readonly timeoutMs: number;
  readonly provisioning: ProvisioningPolicy;
  /** The validated input, normalised (blank optional fields removed). */
  readonly input: EntryInput;
}

export const defaultTimeoutMs = 10_000;

export const defaultProvisioning: ProvisioningPolicy = Object.freeze({
  createUsers: true,
  updateOnSignIn: true,
  adoptExistingUsers: false,
});
