import type { CompiledEntry, MappedUser, RandomSource } from '../../core/index.js';
import { SignInError, isVisibleAscii } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Telemetry } from '../../foundation/observability/telemetry.js';
import type {
  PendingSignIn,
  Storage,
  TogetherStores,
  UserInfoAccess,
  UserRecord,
} from '../../foundation/storage/types.js';
import type { SamlSignIn } from '../saml/saml-response.js';
import type { OidcSignIn } from '../../foundation/oidc/oidc-sign-in.js';
import type { ProviderMetadata } from '../../foundation/oidc/provider-metadata.js';
import type { EntryRegistry } from '../../foundation/entries/entry-registry.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import type { GatewayMemory } from '../../foundation/http/gateway-memory.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import { pendingKey } from './pending-key.js';
import { single } from './sources/callback-fields.js';
import { provisionUser } from './provision-user.js';
import { namespaceOwner } from './reserved-user-id.js';
import type { SignInSource } from './sources/sign-in-source.js';
import { sourceOf } from './sources/source-registry.js';

interface CompleteSignInDeps {
  /** OpenID Providers' metadata and keys, for OpenID Connect entries. */
  readonly oidc: ProviderMetadata;
  /** SAML identity providers' metadata fetched from their URLs. */
  readonly documents: FetchedDocuments;
  readonly entries: EntryRegistry;
  readonly storage: Storage;
  readonly clock: () => number;
  readonly send: SendOutbound;
  /** Nonces of the calls to an extension service. */
  readonly random: RandomSource;
  readonly telemetry: Telemetry;
  /** The LDAP entries' pools of connections live here. */
  readonly memory: Pick<GatewayMemory, 'directoryPools'>;
}

/** The callback's query as Fastify parsed it: a repeated parameter is an array. */
export type CallbackQuery = Readonly<Record<string, unknown>>;

export interface SignInSuccess {
  readonly user: UserRecord;
  readonly entry: CompiledEntry;
  readonly returnTo: string;
  /** An OpenID Connect sign-in: what is kept with the session (keep-provider-session.ts). */
  readonly oidc?: OidcSignIn;
  /** The access token, kept sealed when the entry re-checks sessions with user info. */
  readonly access?: UserInfoAccess;
  /** A SAML sign-in: its NameID and SessionIndex, kept with the session the same way. */
  readonly saml?: SamlSignIn;
}

/** What the caller writes for a sign-in (its session, its audit event), in the user's transaction. */
type FinishSignIn<T> = (stores: TogetherStores, success: SignInSuccess) => Promise<T>;

/**
 * Flow steps 9 to 15 (docs/design.md#the-sign-in-flow). The callback is validated completely —
 * the pending sign-in consumed atomically and checked against the entry, the
 * browser and the clock — before anything is sent to the third-party server
 * (docs/design.md#single-use-and-browser-binding). Throws SignInError with the step's code.
 *
 * The consumed pending sign-in is committed at once, before the calls out,
 * so that a replayed state finds nothing however long they take. The user's
 * row and what `finish` writes are then one transaction: a failure at any
 * of those steps leaves none of them written.
 */
export async function completeSignIn<T>(
  deps: CompleteSignInDeps,
  entryId: string,
  query: CallbackQuery,
  bindingValue: string | undefined,
  finish: FinishSignIn<T>,
): Promise<T> {
  const entry = await deps.entries.get(entryId);
  if (entry === undefined)
    throw new SignInError('entry_unknown', `no entry ${entryId}`, { entryId });

  const source = sourceOf(entry);
  const pending = await consumePending(deps, entry, source, query, bindingValue);
  // Checked after the pending sign-in is consumed: a state is good for one
  // try only, and the error page's "try again" starts a new sign-in.
  const code = single(query[source.callback.codeField]);
  if (code !== undefined && code !== '' && !isVisibleAscii(code)) {
    throw new SignInError(
      'code_invalid',
      'the code has a control or non-ASCII character (RFC 6749 Appendix A.11: code = 1*VSCHAR)',
      { entryId },
    );
  }
  const {
    mapped,
    oidc: oidcSignIn,
    access,
    saml,
  } = await source.readAnswer(
    {
      appTokens: deps.storage.appTokens,
      send: deps.send,
      clock: deps.clock,
      random: deps.random,
      oidc: deps.oidc,
      documents: deps.documents,
      telemetry: deps.telemetry,
      directoryPools: deps.memory.directoryPools,
    },
    query,
    pending,
  );
  return finishTogether(deps, entry, mapped, pending, finish, {
    ...(oidcSignIn === undefined ? {} : { oidc: oidcSignIn }),
    ...(access === undefined ? {} : { access }),
    ...(saml === undefined ? {} : { saml }),
  });
}

async function finishTogether<T>(
  deps: CompleteSignInDeps,
  entry: CompiledEntry,
  mapped: MappedUser,
  pending: PendingSignIn,
  finish: FinishSignIn<T>,
  oidcSignIn: Pick<SignInSuccess, 'oidc' | 'access' | 'saml'> = {},
): Promise<T> {
  // Read before the transaction: entries are not among its stores.
  const reservedBy = await namespaceOwner(deps.storage.entries, entry, mapped.userId);
  return deps.storage.writeTogether(async (stores) => {
    const user = await deps.telemetry.span('sign_in.provision', () =>
      provisionUser(stores.users, entry, mapped, deps.clock(), reservedBy),
    );
    return finish(stores, { user, entry, returnTo: pending.returnTo, ...oidcSignIn });
  });
}

async function consumePending(
  deps: CompleteSignInDeps,
  entry: CompiledEntry,
  source: SignInSource,
  query: CallbackQuery,
  bindingValue: string | undefined,
): Promise<PendingSignIn> {
  const invalid = (reason: string) =>
    new SignInError('state_invalid', reason, { entryId: entry.id });
  // The field the source's callback carries its correlation in (`state`).
  const field = source.callback.correlationField;
  let key: string;
  if (field !== undefined) {
    const state = single(query[field]);
    if (state === undefined || state === '') throw invalid('the callback carries no single state');
    // RFC 6749 Appendix A.5: state = 1*VSCHAR. Not one the gateway made, so
    // there is nothing to look up or consume.
    if (!isVisibleAscii(state)) throw invalid('the state has a control or non-ASCII character');
    key = pendingKey(entry.id, source, state, '');
  } else {
    // Without a state, only the browser's binding cookie finds its sign-in.
    if (bindingValue === undefined) throw invalid('the browser has no binding cookie');
    key = pendingKey(entry.id, source, undefined, bindingValue);
  }
  // Consumed before any other check, so a state is good for one try only,
  // whoever presents it.
  const pending = await deps.storage.pendingSignIns.consume(key);
  if (pending === undefined) {
    throw invalid('no pending sign-in has this state (unknown, used or replayed)');
  }
  // A handoff is kept as a pending sign-in under a key of its own kind
  // (sign-in/handoff.ts); one can never stand for a sign-in.
  if (pending.handoff !== undefined) throw invalid('the state is a handoff, not a sign-in');
  if (pending.entryId !== entry.id) throw invalid(`the state belongs to entry ${pending.entryId}`);
  if (bindingValue === undefined || pending.bindingHash !== sha256Base64url(bindingValue)) {
    throw invalid('the state belongs to another browser');
  }
  if (pending.expiresAt <= deps.clock()) throw invalid('the pending sign-in expired');
  return pending;
}
