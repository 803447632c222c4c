import type { EntryInput, JsonValue } from '../../core/index.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { RevocationFeed } from './session-revocations.js';

/**
 * The gateway's storage, behind small interfaces. SQLite
 * (Kysely over better-sqlite3) fills them by default; PostgreSQL and Redis
 * fill the same interfaces for several instances. Times are epoch
 * milliseconds passed in by the caller, so tests control the clock.
 */
export interface Storage {
  readonly entries: EntryStore;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly pendingSignIns: PendingSignInStore;
  /** The provider's side of OpenID Connect sessions (oidc-session-store.ts). */
  readonly oidcSessions: OidcSessionStore;
  readonly audit: AuditStore;
  readonly apiTokens: ApiTokenStore;
  /** Application tokens of entries with an appToken call, shared by every instance. */
  readonly appTokens: AppTokenStore;
  /** Administrators' test sign-ins and their traces (docs/admin-api.md#test-sign-in). */
  readonly trialSignIns: TrialSignInStore;
  /** The applications signing in through the gateway as an OpenID Provider (oidc-client-store.ts). */
  readonly oidcClients: OidcClientStore;
  /** The OpenID Provider's signing keys, the private ones sealed (oidc-signing-key-store.ts). */
  readonly oidcSigningKeys: OidcSigningKeyStore;
  /** The OpenID Provider's authorization codes and access tokens, stored hashed (oidc-grant-store.ts). */
  readonly oidcGrants: OidcGrantStore;
  /** Counters for rate limits: in memory, or in Redis shared by every instance. */
  readonly rateLimits: RateLimitStore;
  /**
   * Counters of failed password attempts: in Redis when configured, else in
   * the database, so that the local sign-in limit holds for every instance.
   */
  readonly failureCounts: RateLimitStore;
  /** Change notices between instances (entries edited elsewhere). */
  readonly changes: ChangeNotifier;
  /**
   * The revocations of every process sharing the sessions (sign-outs, users
   * disabled or changed, sessions ended), so that session checks can be
   * remembered (src/foundation/http/session-cache.ts): SQLite's revocation log, or
   * announcements between instances over Redis pub/sub or PostgreSQL's
   * LISTEN/NOTIFY (storage/revocation-announcements.ts). Absent where
   * there is none: sessions are then read at every check.
   */
  readonly revocations?: RevocationFeed | undefined;
  /**
   * A value that moves when another process commits to the same database
   * (SQLite's data_version: a CLI command beside the server), which no
   * notifier announces. Absent where another process's writes are
   * announced (Redis pub/sub) or not cheaply seen.
   */
  readonly otherWritersVersion?: (() => string) | undefined;
  /**
   * Deletes the sessions and pending sign-ins that are over (the SQL tables;
   * Redis expires its own keys), and the other rows that only live a while:
   * OpenID Connect sessions, ended rate-limit windows, test sign-ins a day
   * after their trace expired, the OpenID Provider's retired signing keys
   * no longer published. Where several instances share a database
   * (PostgreSQL), only one sweeps at a time: the others skip and report
   * undefined.
   */
  sweepExpired(now: number, idleBefore: number): Promise<SweepCounts | undefined>;
  /**
   * Runs `work` with stores whose writes commit together when it resolves,
   * and not at all when it throws: one transaction of the SQL database. A
   * store held in Redis (sessions, with SSOGATE_REDIS_URL) has no part in
   * it: its writes are held back and made once the transaction has
   * committed (src/app/open-storage.ts). `work` must only use the
   * stores it is given, and wait on nothing else: on SQLite every other query
   * waits until it ends.
   */
  writeTogether<T>(work: (stores: TogetherStores) => Promise<T>): Promise<T>;
  /**
   * Deletes one small batch of audit events past retention and resolves how
   * many went (fewer than `limit`: nothing more is due). Where several
   * instances share a database (PostgreSQL), one prunes at a time: the
   * others get undefined.
   */
  pruneAudit(batch: AuditPruneBatch): Promise<number | undefined>;
  /** Resolves when the database answers; for the readiness check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The stores a `writeTogether` unit of work writes through: a sign-in's
 * user, audit event, session and provider session (src/features/sign-in/routes.ts).
 */
export type TogetherStores = Pick<Storage, 'users' | 'sessions' | 'oidcSessions' | 'audit'>;

/** What one batch of audit pruning deletes: events matching either rule, oldest first. */
export interface AuditPruneBatch {
  /** Events before this time (epoch ms) go; undefined: no age limit. */
  readonly before: number | undefined;
  /** Only the newest this many events stay; undefined: no row cap. */
  readonly keepRows: number | undefined;
  /** At most this many rows in the one statement. */
  readonly limit: number;
}

export interface SweepCounts {
  readonly sessions: number;
  readonly pendingSignIns: number;
}

// ---------------------------------------------------------------- entries

export interface EntryRecord {
  /** The entry as validated, appsecret included (decrypted). */
  readonly input: EntryInput;
  /** Order on the chooser and in the console. */
  readonly position: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface EntryStore {
  list(): Promise<EntryRecord[]>;
  get(id: string): Promise<EntryRecord | undefined>;
  /**
   * Inserts a new entry; resolves false if the id is taken. The appsecret is
   * encrypted at rest. If `input.isDefault`, every other entry stops being
   * the default in the same transaction.
   */
  create(input: EntryInput, at: number): Promise<boolean>;
  /**
   * Replaces an entry; resolves false if it does not exist. The secret is
   * write-only: when `input.appsecret` is undefined, `secret` says whether the
   * stored one is kept (the default) or cleared. The extensionSecret is
   * written as `input` has it (absent clears it): callers that keep it pass
   * the stored one back, as the admin API does.
   */
  update(id: string, input: EntryInput, at: number, secret?: 'keep' | 'clear'): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /**
   * Gives the entries the order of `ids` (positions 1, 2, ...) in one
   * transaction; resolves false, changing nothing, unless `ids` is exactly
   * the set of stored entries.
   */
  reorder(ids: readonly string[]): Promise<boolean>;
  /** Whether a secret is stored, for `appsecretSet` on read. */
  hasSecret(id: string): Promise<boolean>;
}

// ------------------------------------------------------------------ users

export interface UserRecord {
  /** Internal row id; sessions refer to it. */
  readonly id: number;
  readonly userId: string;
  /** The entry that created the user; null for local accounts. */
  readonly sourceEntryId: string | null;
  readonly userName: string | null;
  readonly email: string | null;
  readonly mobile: string | null;
  readonly department: string | null;
  readonly enabled: boolean;
  readonly isAdmin: boolean;
  /** Set for local accounts only; never leaves the server. */
  readonly passwordHash: string | null;
  readonly extra: Readonly<Record<string, JsonValue>>;
  /** The groups the signing-in entry mapped (docs/entries.md#groups-and-administrators); empty when none. */
  readonly groups: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastSignInAt: number | null;
}

/** The mappable columns, as provisioning writes them. */
export interface UserAttributes {
  readonly userName?: string;
  readonly email?: string;
  readonly mobile?: string;
  readonly department?: string;
  readonly enabled?: boolean;
  readonly extra?: Readonly<Record<string, JsonValue>>;
  /** Replaces the stored groups. */
  readonly groups?: readonly string[];
  /** Set by an entry whose adminGroups decide it. */
  readonly isAdmin?: boolean;
}

export interface NewUser extends UserAttributes {
  readonly userId: string;
  readonly sourceEntryId: string | null;
  readonly isAdmin?: boolean;
  readonly passwordHash?: string | null;
}

interface UserQuery {
  /** Matches userId, userName, email (case-insensitive substring). */
  readonly search?: string;
  readonly limit: number;
  readonly offset: number;
}

export interface UserStore {
  get(id: number): Promise<UserRecord | undefined>;
  findByUserId(userId: string): Promise<UserRecord | undefined>;
  /**
   * The user with this userId, its last sign-in set to `at` by the same
   * statement (one round trip where a read and recordSignIn take two);
   * undefined when there is none. For a sign-in's transaction, whose
   * rollback takes the time back when the sign-in is refused.
   */
  findForSignIn(userId: string, at: number): Promise<UserRecord | undefined>;
  /**
   * Inserts the user unless one with that userId exists, atomically (a unique
   * key and INSERT ... ON CONFLICT DO NOTHING), and returns the row either
   * way: two first sign-ins of one new user at the same moment make one row.
   */
  insertIfAbsent(user: NewUser, at: number): Promise<{ user: UserRecord; created: boolean }>;
  /** Writes the given mapped columns; undefined ones are left as they are. */
  updateAttributes(id: number, attributes: UserAttributes, at: number): Promise<UserRecord>;
  recordSignIn(id: number, at: number): Promise<void>;
  setEnabled(id: number, enabled: boolean, at: number): Promise<boolean>;
  setAdmin(id: number, isAdmin: boolean, at: number): Promise<boolean>;
  setPasswordHash(id: number, passwordHash: string, at: number): Promise<boolean>;
  list(query: UserQuery): Promise<{ users: UserRecord[]; total: number }>;
  countAdmins(): Promise<number>;
  /**
   * Disables the user or revokes their admin flag, unless that would leave no
   * enabled administrator: checked and written in one transaction that locks
   * the administrators' rows, so two administrators removing each other at
   * the same moment cannot both succeed.
   */
  removeAdminAccess(
    id: number,
    change: 'disable' | 'revoke_admin',
    at: number,
  ): Promise<'done' | 'last_admin' | 'not_found'>;
}

// --------------------------------------------------------------- sessions

export interface SessionRecord {
  /** SHA-256 of the session id, base64url; the id itself is never stored. */
  readonly idHash: string;
  readonly userRowId: number;
  /** The entry the user signed in with; null for a local sign-in. */
  readonly entryId: string | null;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** Absolute end of the session, whatever its activity. */
  readonly expiresAt: number;
  /**
   * For a session made for another host by a handoff: the idHash of the
   * sign-in's session it came from, which it lives and ends with
   * (sessions/session-service.ts). Absent for a sign-in's own session.
   */
  readonly signInHash?: string;
  /**
   * For a host's session: the host it was handed to, normalised
   * (config/proxy-settings.ts normaliseHost); it is valid there only
   * (config/served-hosts.ts sessionServesHost). For a sign-in's own
   * session made under SSOGATE_COOKIE_DOMAIN: that domain with a leading dot
   * (served-hosts.ts domainBinding), valid on every host under it; absent
   * otherwise, the session serving the auth host.
   */
  readonly host?: string;
}

export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | undefined>;
  /** Records activity (sliding idle time-out). */
  touch(idHash: string, lastSeenAt: number): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of a user; resolves how many ended. */
  deleteForUser(userRowId: number): Promise<number>;
  /**
   * Ends every session signed in with an entry (one disabled or deleted);
   * resolves how many ended. Local sign-ins (entryId null) are never touched.
   */
  deleteForEntry(entryId: string): Promise<number>;
  /** Removes sessions past their absolute end or idle since `idleBefore`. */
  deleteExpired(now: number, idleBefore: number): Promise<number>;
  /** How many sessions are still valid (the metrics' gauge; one query, not per request). */
  countActive(now: number, idleBefore: number): Promise<number>;
}

// ------------------------------------------------- OpenID Connect sessions

/** What an OpenID Connect sign-in left for its session: logout hint, re-validation, sid. */
/** What calling user info again needs: the sign-in's access token and the token answer's named values. */
export interface UserInfoAccess {
  readonly accessToken: string;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * What a provider's sign-in left for its session: an OpenID Connect sign-in's
 * tokens, or the access token of an entry that re-checks with user info
 * (whose `idToken` is then empty and `subject` the mapped user id).
 */
export interface OidcSessionRecord {
  /** The session's idHash. */
  readonly sessionHash: string;
  readonly entryId: string;
  /** The id_token's `sub`. */
  readonly subject: string;
  /** The id_token's `sid`, for back-channel logout of one provider session. */
  readonly providerSid: string | null;
  /** Stored sealed; given as `id_token_hint` at sign-out. */
  readonly idToken: string;
  /** Stored sealed; used to re-check the session. */
  readonly refreshToken: string | null;
  /** Stored sealed; re-checks the session by calling user info again, without a refresh token. */
  readonly userInfoAccess: UserInfoAccess | null;
  /** When the provider last vouched for the session. */
  readonly checkedAt: number;
  /** The session's own absolute end. */
  readonly expiresAt: number;
}

export interface OidcSessionStore {
  save(record: OidcSessionRecord): Promise<void>;
  get(sessionHash: string): Promise<OidcSessionRecord | undefined>;
  /** The session hashes of an entry's sessions with this provider sid and/or subject. */
  sessionsOf(
    entryId: string,
    match: { readonly sid?: string | undefined; readonly subject?: string | undefined },
  ): Promise<readonly string[]>;
  /** Records a successful re-check, and the refresh token that came with it. */
  checked(sessionHash: string, at: number, refreshToken?: string): Promise<void>;
  delete(sessionHash: string): Promise<void>;
  /**
   * Records a logout token's jti; resolves false when it was already used
   * (INSERT ... ON CONFLICT DO NOTHING: of two deliveries, one wins).
   */
  useOnce(jtiHash: string, expiresAt: number): Promise<boolean>;
  deleteExpired(now: number): Promise<number>;
}

// -------------------------------------------------------- pending sign-ins

export interface PendingSignIn {
  /** SHA-256 of the state value, base64url. */
  readonly stateHash: string;
  readonly entryId: string;
  /** A same-origin path, already checked. */
  readonly returnTo: string;
  /** SHA-256 of the browser-binding cookie's value, base64url. */
  readonly bindingHash: string;
  readonly redirectUri: string;
  readonly codeVerifier: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The nonce an OpenID Connect sign-in sent; absent or null otherwise. */
  readonly nonce?: string | null;
  /**
   * Set for a handoff of a sign-in to another host (sign-in/handoff.ts),
   * which is kept here for its single use: `stateHash` is then the hash of
   * the handoff code, `bindingHash` the hash of the browser's handoff
   * nonce, `returnTo` the path on that host. Absent for a sign-in.
   */
  readonly handoff?: HandoffTarget;
}

/** The host a handoff is for, and the sign-in's session it hands on. */
export interface HandoffTarget {
  readonly host: string;
  readonly signInHash: string;
  /**
   * The user's id (UserRecord.userId), for the finish step's audit event,
   * which then reads no user; null in a record stored before it was kept
   * (migration 0022).
   */
  readonly userId: string | null;
}

export interface PendingSignInStore {
  /**
   * Stores the pending sign-in; one already stored under the same key is
   * replaced (an entry without ${state} keeps one per browser and entry).
   * With `perBrowser`, at most that many pending sign-ins of the same
   * browser (bindingHash) remain, this one included: the oldest go.
   */
  save(pending: PendingSignIn, perBrowser?: number): Promise<void>;
  /**
   * Removes and returns the pending sign-in in one atomic step (DELETE ...
   * RETURNING, GETDEL): of two callbacks carrying one state, exactly one gets
   * it. Expiry is checked by the caller.
   */
  consume(stateHash: string): Promise<PendingSignIn | undefined>;
  deleteExpired(now: number): Promise<number>;
}

// ------------------------------------------------------------ rate limits

/** A key's counting window. */
export interface RateWindow {
  /** Events counted in the window so far. */
  readonly count: number;
  /** When the window ends; the next event then opens a new one. */
  readonly endsAt: number;
  /** When the last event was counted. */
  readonly lastAt: number;
}

/** One count of RateLimitStore.hitInTurn: its key, its window and the most it may reach. */
export interface LimitedHit {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
}

/**
 * Fixed-window counters, the one mechanism behind every rate limit (sign-in
 * starts, local sign-in failures). A window opens at a key's first event, or
 * the first after the previous window ended, and lasts `windowMs`.
 */
export interface RateLimitStore {
  /**
   * Counts one event and returns the window, this event included. Atomic:
   * concurrent hits, on any instance sharing the store, each count once.
   */
  hit(key: string, now: number, windowMs: number): Promise<RateWindow>;
  /**
   * Counts the hits in turn, each only while every one before it stayed
   * within its limit: a count over a limit counts nothing after it. Resolves
   * the windows counted, in order, so the last is the one over its limit if
   * any is. Redis does it in one script, one round trip for them all.
   */
  hitInTurn(hits: readonly LimitedHit[], now: number): Promise<RateWindow[]>;
  /** The key's open window, without counting; undefined when none is open. */
  peek(key: string, now: number): Promise<RateWindow | undefined>;
  /** Forgets the key. */
  reset(key: string): Promise<void>;
}

// ------------------------------------------------------------------ audit

/**
 * What an administrator sets for an application that signs in through the
 * gateway as an OpenID Provider (docs/openid-provider.md#clients).
 */
export interface OidcClientSettings {
  /** A name for people: the console and the audit log. */
  readonly name: string;
  /** Where codes may be sent: compared as exact strings, never by prefix. */
  readonly redirectUris: readonly string[];
  /** Where a sign-out may return the browser, compared the same way. */
  readonly postLogoutRedirectUris: readonly string[];
  /** Where logout tokens are POSTed when a gateway session ends; null for none. */
  readonly backchannelLogoutUri: string | null;
  /**
   * The page the signed-out page loads in a hidden frame when a sign-in it
   * had ends (OpenID Connect Front-Channel Logout 1.0 §2); null for none.
   */
  readonly frontchannelLogoutUri: string | null;
  /** Whether that page is loaded with the `iss` and `sid` of the sign-in that ended. */
  readonly frontchannelLogoutSessionRequired: boolean;
  /** The entries whose sign-ins it accepts; empty for every entry. */
  readonly allowedEntries: readonly string[];
  /**
   * The users (userIds) and groups it accepts; both empty for everyone, else
   * a user listed or in a group listed.
   */
  readonly allowedUsers: readonly string[];
  readonly allowedGroups: readonly string[];
  /** Whether it is given refresh tokens. */
  readonly refreshTokens: boolean;
  /**
   * The `sub` it is given: the user's id (`public`), or one of its own per
   * user that no other client's can be matched with (`pairwise`, OpenID
   * Connect Core §8.1; openid-provider/subjects.ts).
   */
  readonly subjectType: 'public' | 'pairwise';
  /** Whether the user is asked before a code is issued (openid-provider/consent.ts). */
  readonly consent: boolean;
}

export interface OidcClientRecord extends OidcClientSettings {
  readonly clientId: string;
  /** SHA-256 of the secret, base64url; null for a public client, which proves itself with PKCE. */
  readonly secretHash: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface OidcClientStore {
  /** False when the client id is taken already (INSERT ... ON CONFLICT DO NOTHING). */
  create(record: OidcClientRecord): Promise<boolean>;
  get(clientId: string): Promise<OidcClientRecord | undefined>;
  /** Every client, by client id. */
  list(): Promise<OidcClientRecord[]>;
  /** Replaces the settings; false when the client is unknown. */
  update(clientId: string, settings: OidcClientSettings, at: number): Promise<boolean>;
  /**
   * Replaces a confidential client's secret hash in one statement, so the old
   * secret stops working at once; false when the client is unknown or public.
   */
  replaceSecretHash(clientId: string, secretHash: string, at: number): Promise<boolean>;
  /** Deletes the client with its codes and tokens, in one transaction; false when it is unknown. */
  delete(clientId: string): Promise<boolean>;
}

/** One of the OpenID Provider's signing keys. */
export interface SigningKeyRecord {
  readonly kid: string;
  /** The public key as a JWK (with kid, alg and use). */
  readonly publicJwk: Readonly<Record<string, JsonValue>>;
  /** The private key as a JWK: opened from its seal when read. */
  readonly privateJwk: Readonly<Record<string, JsonValue>>;
  /**
   * When it signs from: when it was made, or, for the next key made ahead
   * (features/openid-provider/signing-keys.ts), a later time; it is
   * published from when it is stored.
   */
  readonly createdAt: number;
  /** When a newer key took over; null for a key signing, or to sign. */
  readonly retiredAt: number | null;
  /** Until when a retired key stays published: the expiry of the last token it signed. */
  readonly publishedUntil: number | null;
}

export interface OidcSigningKeyStore {
  /**
   * The key of pairwise subjects (docs/openid-provider.md#pairwise-subjects):
   * derived from the secret key (crypto/secret-box.ts derive), never stored,
   * so every instance sharing the secret key computes the same subjects.
   */
  subjectKey(): Uint8Array;
  /**
   * The keys to publish at `now`: those still signing, and those retired
   * whose tokens may not have expired: those still signing first, each
   * group newest first (created_at, then kid).
   */
  published(now: number): Promise<SigningKeyRecord[]>;
  add(key: SigningKeyRecord): Promise<void>;
  /**
   * Retires every key not yet retired but `kid` (only those signing at
   * `signingAt`, created then or before, when given), in one statement:
   * each stays published until `publishedUntil`. Resolves how many were
   * retired.
   */
  retireAllBut(
    kid: string,
    at: number,
    publishedUntil: number,
    options?: { readonly signingAt?: number },
  ): Promise<number>;
  /**
   * Takes every key but `kid` out of the key set at `now`, retired ones
   * included (a revocation: their tokens stop verifying). Resolves how many.
   */
  unpublishAllBut(kid: string, now: number): Promise<number>;
  /** Makes the key `kid` sign from `at` (its created_at): the next key, made signing now. */
  signFrom(kid: string, at: number): Promise<void>;
  /** Deletes the retired keys no longer published. */
  deleteUnpublished(now: number): Promise<number>;
}

/** An authorization code of the OpenID Provider, as stored. */
export interface OidcCodeRecord {
  /** SHA-256 of the code, base64url. */
  readonly codeHash: string;
  /** Shared by the code and every token exchanged for it. */
  readonly grantId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** The PKCE S256 challenge; null when the client sent none. */
  readonly codeChallenge: string | null;
  readonly nonce: string | null;
  readonly scope: string;
  readonly userRowId: number;
  /** The entry of the gateway sign-in; null for a local account. */
  readonly entryId: string | null;
  /** When the user signed in at the gateway. */
  readonly authTime: number;
  readonly expiresAt: number;
}

interface OidcAccessTokenRecord {
  readonly tokenHash: string;
  readonly grantId: string;
  readonly clientId: string;
  readonly userRowId: number;
  readonly scope: string;
  readonly expiresAt: number;
}

/** A refresh token of the OpenID Provider, as stored. */
export interface OidcRefreshTokenRecord {
  readonly tokenHash: string;
  readonly grantId: string;
  readonly clientId: string;
  readonly userRowId: number;
  readonly scope: string;
  readonly entryId: string | null;
  readonly authTime: number;
  readonly expiresAt: number;
}

/**
 * A grant of the OpenID Provider: what a code and every token exchanged for
 * it share, tied to the gateway sign-in it came from.
 */
export interface OidcGrantRecord {
  readonly grantId: string;
  readonly clientId: string;
  readonly userRowId: number;
  /** The user's userId when the grant was made: the `sub` of its tokens and of a logout token. */
  readonly subject: string;
  /** The entry of the gateway sign-in; null for a local account. */
  readonly entryId: string | null;
  /** The idHash of the gateway sign-in's session (a host session's signInHash). */
  readonly signInHash: string;
  /** The `sid` of its id_tokens and logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.1). */
  readonly sid: string;
  readonly createdAt: number;
}

/** The grants of one sign-in, of one user's sign-ins, or of an entry's. */
export type OidcGrantsMatch =
  { readonly signInHash: string } | { readonly userRowId: number } | { readonly entryId: string };

/** What presenting a refresh token did, as for a code. */
type RefreshRedemption =
  | { readonly outcome: 'redeemed'; readonly token: OidcRefreshTokenRecord }
  | { readonly outcome: 'replayed'; readonly token: OidcRefreshTokenRecord }
  | { readonly outcome: 'unknown' };

/** What presenting a code did: exchanged it, or found it used before, or nothing of this client's. */
type CodeRedemption =
  | { readonly outcome: 'redeemed'; readonly code: OidcCodeRecord }
  | { readonly outcome: 'replayed'; readonly code: OidcCodeRecord }
  | { readonly outcome: 'unknown' };

export interface OidcGrantStore {
  addCode(code: OidcCodeRecord): Promise<void>;
  /**
   * Marks the client's unexpired code used, in one statement (UPDATE ...
   * WHERE used_at IS NULL RETURNING), so of two presentations at once one
   * alone redeems it. A code already used is `replayed`; one unknown,
   * expired or issued to another client is `unknown` (and stays as it was).
   */
  redeemCode(codeHash: string, clientId: string, now: number): Promise<CodeRedemption>;
  /**
   * Adds an access token and, for a client that has them, a refresh token
   * to the grant, in one transaction that first takes the grant's row while
   * it is unrevoked; resolves false, adding nothing, when the grant is
   * revoked or gone. Of this and a revokeGrant at once, either the tokens
   * are refused or the revocation removes them.
   */
  addTokens(
    grantId: string,
    tokens: {
      readonly access: Omit<OidcAccessTokenRecord, 'grantId'>;
      readonly refresh?: Omit<OidcRefreshTokenRecord, 'grantId'>;
    },
    now: number,
  ): Promise<boolean>;
  /** The unexpired access token with this hash. */
  accessToken(tokenHash: string, now: number): Promise<OidcAccessTokenRecord | undefined>;
  /**
   * The scopes of the client's unexpired access tokens and unused refresh
   * tokens for the user: what the user has allowed it and it still holds
   * (openid-provider/consent.ts remembers a consent by them).
   */
  liveScopes(clientId: string, userRowId: number, now: number): Promise<string[]>;
  /** As redeemCode, for a refresh token: used once, in one statement. */
  redeemRefreshToken(tokenHash: string, clientId: string, now: number): Promise<RefreshRedemption>;
  /**
   * Revokes the grant for good, in one transaction: marks it revoked (no
   * token is added to it again, addTokens), deletes its access tokens and
   * spends its unused refresh tokens. Used codes and refresh tokens stay
   * until they expire, so a later replay is still seen as one. Resolves how
   * many tokens it ended.
   */
  revokeGrant(grantId: string, now: number): Promise<number>;
  addGrant(grant: OidcGrantRecord): Promise<void>;
  /** The grant, unless revoked, while the sign-in it came from has not been seen to end. */
  grant(grantId: string): Promise<OidcGrantRecord | undefined>;
  /**
   * Ends the grants matched: deletes them in one statement (DELETE ...
   * RETURNING), then their access and refresh tokens, and resolves the
   * grants deleted. Of two callers at once, each grant goes to one alone:
   * the one that tells its client.
   */
  endGrants(match: OidcGrantsMatch): Promise<readonly OidcGrantRecord[]>;
  /**
   * The sign-ins (their session hashes) that have grants, in order, up to
   * `limit` of those after `after`: the sweep checks them a page at a time.
   */
  signInsWithGrants(after: string, limit: number): Promise<readonly string[]>;
  /**
   * Deletes the tokens and codes that are over (a used code is kept until
   * then, to see a replay), and the revoked grants none of whose codes or
   * refresh tokens remain.
   */
  deleteExpired(now: number): Promise<void>;
}

/** Every kind of audit event; the admin API's schemas and the store read this one list. */
export const auditKinds = [
  'sign_in',
  'sign_out',
  'entry_change',
  'user_change',
  'token_change',
  'test_sign_in',
  'handoff',
  'client_change',
  'oidc_code',
  'oidc_token',
  'key_change',
  'backchannel_logout',
] as const;

export type AuditKind = (typeof auditKinds)[number];

export interface AuditEvent {
  readonly id: number;
  readonly at: number;
  readonly kind: AuditKind;
  readonly outcome: 'success' | 'failure';
  readonly entryId: string | null;
  /** The user concerned (a sign-in's userId, the user an admin changed). */
  readonly userId: string | null;
  /** Who acted, for changes: an administrator's userId or "token:NAME". */
  readonly actor: string | null;
  readonly code: string | null;
  /** The reference id shown on the error page. */
  readonly reference: string | null;
  readonly durationMs: number | null;
  /** Masked details; never a secret, code or token. */
  readonly detail: Readonly<Record<string, JsonValue>> | null;
}

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

export interface AuditQuery {
  readonly kind?: AuditKind;
  readonly entryId?: string;
  readonly userId?: string;
  readonly outcome?: 'success' | 'failure';
  /** The reference id an error page showed. */
  readonly reference?: string;
  readonly since?: number;
  readonly until?: number;
  readonly limit: number;
  /** Events with an id below this (paging backwards from the newest). */
  readonly beforeId?: number;
}

/** When an entry last signed someone in, and last failed to; null for never. */
interface LastSignIns {
  readonly success: number | null;
  readonly failure: number | null;
}

export interface AuditStore {
  append(event: NewAuditEvent): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEvent[]>;
  /** The times of the entry's last successful and last failed sign-in. */
  lastSignIns(entryId: string): Promise<LastSignIns>;
}

// ------------------------------------------------------------- API tokens

/**
 * Whose rights an API token stands on (docs/admin-api.md#api-tokens): an
 * administrator's user row, checked at every call, or a named service
 * owner of a token made with `ssogate token create`, ended only by revoking it.
 */
export type ApiTokenOwner =
  | {
      readonly kind: 'user';
      readonly userRowId: number;
      /** The row's userId when the token was made; a row that no longer has it is not the owner. */
      readonly userId: string;
    }
  | { readonly kind: 'service'; readonly name: string };

export interface ApiTokenRecord {
  readonly id: string;
  readonly name: string;
  /** SHA-256 of the token, base64url; the token is shown once and never stored. */
  readonly tokenHash: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
  /** When the token stops working by itself; null: until revoked. */
  readonly expiresAt: number | null;
  /** Null for a token made before owners were recorded (migration 0014). */
  readonly owner: ApiTokenOwner | null;
}

export interface ApiTokenStore {
  create(
    record: Omit<ApiTokenRecord, 'lastUsedAt' | 'revokedAt' | 'expiresAt' | 'owner'> & {
      readonly expiresAt?: number | null;
      /** Absent only for tokens stored as if made before owners were recorded. */
      readonly owner?: ApiTokenOwner;
    },
  ): Promise<void>;
  /** An unrevoked token with this hash. */
  findActiveByHash(tokenHash: string): Promise<ApiTokenRecord | undefined>;
  markUsed(id: string, at: number): Promise<void>;
  list(): Promise<ApiTokenRecord[]>;
  revoke(id: string, at: number): Promise<boolean>;
}

// ------------------------------------------------------------- app tokens

/** An entry's application token (docs/entries.md#the-application-token), decrypted. */
interface CachedAppToken {
  readonly token: string;
  /** Of the entry settings that fetched it; another fingerprint means a stale token. */
  readonly fingerprint: string;
  readonly expiresAt: number;
}

export interface AppTokenStore {
  get(entryId: string): Promise<CachedAppToken | undefined>;
  /** Stores the entry's token, replacing any other; sealed at rest. */
  put(entryId: string, cached: CachedAppToken): Promise<void>;
  /** Forgets the entry's token, but only if it is still `token` (another instance may have renewed it). */
  drop(entryId: string, token: string): Promise<void>;
}

// ------------------------------------------------------- test sign-ins

export type TrialSignInStatus = 'waiting' | 'running' | 'done';

export interface TrialSignInRecord {
  readonly id: string;
  /** The hash of the state the authorization URL carries (pending-key.ts). */
  readonly stateKey: string;
  /** Who started it: an administrator's userId or `token:NAME`; only they read it. */
  readonly actor: string;
  readonly entryId: string;
  readonly status: TrialSignInStatus;
  /** Sealed at rest: the draft entry and the flow's own secrets, as JSON. */
  readonly secrets: string;
  /** The masked trace as JSON, once there is one. */
  readonly trace: string | null;
  readonly createdAt: number;
  /** The callback is accepted until then (the pending sign-in's lifetime). */
  readonly callbackUntil: number;
  /** The trace is read until then. */
  readonly expiresAt: number;
}

export interface TrialSignInStore {
  create(record: TrialSignInRecord): Promise<void>;
  get(id: string): Promise<TrialSignInRecord | undefined>;
  /**
   * Takes the waiting test with this state key, if its callback time is not
   * over, and marks it running: atomically, so a replayed callback finds nothing.
   */
  claim(stateKey: string, now: number): Promise<TrialSignInRecord | undefined>;
  /** Records the trace so far, and whether the test is done. */
  saveTrace(id: string, trace: string, status: TrialSignInStatus): Promise<void>;
  /**
   * Deletes the tests whose trace expired more than a day before `now`,
   * sealed draft and all; resolves how many went.
   */
  deleteExpired(now: number): Promise<number>;
}
