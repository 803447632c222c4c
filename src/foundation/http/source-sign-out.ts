import type { UpstreamSessionRecord } from '../storage/types.js';
import type {
  CompiledEntry,
  LogoutRequest,
  OidcDiscovery,
  RandomSource,
} from '../../core/index.js';
import type { FetchedDocuments } from '../outbound/fetched-documents.js';

/**
 * The OpenID Provider whose logout notifications end an entry's sessions:
 * Back-Channel Logout 1.0 tokens and Front-Channel Logout 1.0 requests are
 * checked against it.
 */
interface LogoutNotifications {
  readonly issuer: string;
  readonly discovery: OidcDiscovery;
  readonly clockSkewSeconds: number;
  /** The audience a logout token must name: the entry's appid. */
  readonly clientId: string;
}

/** What a source may read to say where its sign-out goes. */
interface SignOutContext {
  /** Documents fetched from a URL an entry names (a SAML identity provider's metadata). */
  readonly documents: FetchedDocuments;
}

interface SignOutAtSourceOptions extends SignOutContext {
  readonly publicUrl: string;
  readonly random: RandomSource;
  /** The id_token kept with the session at its sign-in, if one was (keep-provider-session.ts). */
  readonly idToken: string | undefined;
  /** All that was kept of the provider's session at its sign-in, if anything was. */
  readonly providerSession: UpstreamSessionRecord | undefined;
  readonly now: number;
  /**
   * Records a message the source will answer to the gateway (a SAML
   * LogoutRequest's ID, namespaced by the source) until `until`: its answer
   * is taken once (UpstreamSessionStore.takeOnce).
   */
  expectAnswer(key: string, until: number): Promise<void>;
}

/**
 * What signing out asks of an entry's kind of sign-in source. The sources
 * are a feature (src/features/sign-in/sources/, which implements this as
 * part of SignInSource) above the sessions (docs/architecture.md#layers), so
 * the sessions reach them through this type of their own, handed in by
 * app/ as `Gateway.sources`.
 */
export interface SourceSignOut {
  /**
   * Where the sign-out form may send the browser besides the gateway (its
   * CSP form-action must allow the origin), or undefined: nowhere. A
   * promise where it is read from a document (a SAML identity provider's
   * metadata).
   */
  signOutDestination(context: SignOutContext): string | undefined | Promise<string | undefined>;
  /**
   * How the user's sign-in ends at the source too: a URL the browser is
   * sent to, or a call the gateway makes itself; undefined when signing
   * out ends the gateway's session only. A promise where the message takes
   * building (a SAML LogoutRequest).
   */
  signOutAtSource(
    options: SignOutAtSourceOptions,
  ): LogoutRequest | undefined | Promise<LogoutRequest | undefined>;
  /** Whose logout notifications end this entry's sessions; undefined: it takes none. */
  readonly logoutNotifications: LogoutNotifications | undefined;
}

/** The sign-out side of the sign-in source of a compiled entry. */
export type SignOutSources = (entry: CompiledEntry) => SourceSignOut;
