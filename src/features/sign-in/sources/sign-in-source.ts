import type {
  AuthorizationRequest,
  AdminGroups,
  CompiledOAuth2Entry,
  MappedUser,
  RandomSource,
} from '../../../core/index.js';
import type { Client } from 'ldapts';
import type { PoolsByKey } from '../../../foundation/outbound/connection-pool.js';
import type { SourceSignOut } from '../../../foundation/http/source-sign-out.js';
import type { Telemetry } from '../../../foundation/observability/telemetry.js';
import type { ProviderMetadata } from '../../../foundation/oidc/provider-metadata.js';
import type { FetchedDocuments } from '../../../foundation/outbound/fetched-documents.js';
import type { SendOutbound } from '../../../foundation/outbound/outbound-policy.js';
import type {
  AppTokenStore,
  PendingSignIn,
  SessionRecord,
} from '../../../foundation/storage/types.js';
import type { RevalidationDeps } from '../../sessions/revalidate-session.js';
import type { SignedInUser, StepObserver } from '../oauth2-steps.js';

/**
 * A kind of sign-in source as the console's entry form shows it: plain
 * data, served by the admin API, so the console needs no list of its own
 * to know what a kind asks for.
 */
export interface SourceKind {
  /** The kind's name: `oauth2`, `openid-connect`, `extension`, `ldap`, `saml`. */
  readonly kind: string;
  /** The `type` an entry of this kind is saved with (docs/entries.md#fields). */
  readonly entryType: 'oauth2' | 'extension' | 'ldap' | 'saml';
  readonly label: string;
  /**
   * The form's sections below its general fields, in order, by the names
   * the console draws them by (console/src/entry-kinds/entry-kind.ts).
   */
  readonly sections: readonly string[];
  /** Whether the console's test panel (pasted answers run through the entry) applies. */
  readonly testPanel: boolean;
}

/** The HTTP methods a callback arrives by. */
export type CallbackMethod = 'GET' | 'POST';

/** How a source's answer arrives at /_sso/callback/{id}. */
interface SourceCallback {
  /** GET, and POST too for a source that answers by a posted form (form-post-callback.ts). */
  readonly methods: readonly CallbackMethod[];
  /**
   * The callback field that carries back what the start sent, by which its
   * pending sign-in is found (`state`; a SAML source's would be
   * `RelayState`), or undefined when the source can echo nothing and the
   * browser's binding cookie alone finds it (pending-key.ts).
   */
  readonly correlationField: string | undefined;
  /** The field holding the code, checked as RFC 6749 Appendix A.11 VSCHAR before any call. */
  readonly codeField: string;
}

/** What a sign-in's start needs (start-sign-in.ts, start-trial.ts). */
interface SourceStartDeps {
  readonly publicUrl: string;
  readonly random: RandomSource;
  readonly send: SendOutbound;
  readonly clock: () => number;
  /** Documents fetched from URLs an entry names (a SAML identity provider's metadata). */
  readonly documents: FetchedDocuments;
}

/** What reading the answer needs (complete-sign-in.ts, run-trial.ts). */
interface SourceAnswerDeps {
  readonly appTokens: AppTokenStore;
  readonly send: SendOutbound;
  readonly clock: () => number;
  readonly random: RandomSource;
  readonly oidc: ProviderMetadata;
  readonly documents: FetchedDocuments;
  readonly telemetry: Telemetry;
  /**
   * The gateway's pools of LDAP connections (gateway-memory.ts); a test
   * sign-in gives none, so it traces a connection of its own end to end.
   */
  readonly directoryPools?: PoolsByKey<Client>;
}

/**
 * What an administrator's test sign-in records while a source reads its
 * answer (src/features/trial-sign-in/trace-recorder.ts implements it).
 */
interface TrialTrace extends StepObserver {
  /** Starts a step of the trace; its calls and results follow. */
  begin(name: string): void;
  result(line: { readonly label: string; readonly outcome: 'ok'; readonly value: string }): void;
  /** A value the trace never shows (a typed password). */
  secret(value: string): void;
}

/** A check `ssogate doctor` makes of a source beyond its call origins (src/cli/doctor/entry-checks.ts). */
export type DoctorCheck = { readonly check: 'openid-discovery'; readonly issuer: string };

/**
 * One kind of sign-in source, bound to one compiled entry
 * (source-registry.ts `sourceOf`): everything of a sign-in, its sessions,
 * its test and its checks that depends on the kind. The flows themselves
 * stay where they are (oauth2-steps.ts, src/features/extension/,
 * src/core/request/); a source says which of them an entry runs.
 * docs/adding-a-source.md says how to add one.
 */
export interface SignInSource extends SourceSignOut {
  readonly kind: SourceKind;

  /**
   * Flow step 2: where the browser goes, and what its pending sign-in
   * keeps. `trial` says, explicitly, that an administrator's test sign-in
   * starts it (src/features/trial-sign-in/start-trial.ts), with a state of
   * `stateBytes`.
   */
  authorizationRequest(
    deps: SourceStartDeps,
    options?: { readonly stateBytes?: number; readonly trial?: boolean },
  ): Promise<AuthorizationRequest>;

  readonly callback: SourceCallback;

  /**
   * Flow steps 10 to 14, once the pending sign-in is consumed and the code
   * field checked: the callback's fields read into the user (and for an
   * OpenID Connect sign-in, what is kept with its session). Throws
   * SignInError with the step's code.
   */
  readAnswer(
    deps: SourceAnswerDeps,
    fields: Readonly<Record<string, unknown>>,
    pending: PendingSignIn,
  ): Promise<SignedInUser>;

  /**
   * Whether the user's groups (MappedUser.groups, which `readAnswer` read)
   * are kept, and which make an administrator; undefined: they are not.
   */
  readonly groupMapping: AdminGroups | undefined;

  /** Re-checks a session with the source when due (docs/entries.md#re-validation); false ends it. */
  revalidate(deps: RevalidationDeps, session: SessionRecord): Promise<boolean>;

  /** The entry's secrets a test sign-in's trace masks, beyond what the steps learn. */
  readonly secrets: readonly string[];

  /** A test sign-in's reading of the answer: the sign-in's own steps, recorded in `trace`. */
  readTrialAnswer(
    deps: SourceAnswerDeps,
    fields: Readonly<Record<string, unknown>>,
    pending: PendingSignIn,
    trace: TrialTrace,
  ): Promise<MappedUser>;

  /**
   * The entry whose OAuth2 steps (oauth2-steps.ts) this source runs, for
   * what reads their expressions: the console's test panel of pasted
   * answers and a test sign-in's report of each expression. Undefined for
   * a source whose answers the gateway never reads itself.
   */
  readonly oauth2Steps: CompiledOAuth2Entry | undefined;

  /** What `ssogate doctor` checks of this source beyond the origins it calls. */
  readonly doctorChecks: readonly DoctorCheck[];
}
