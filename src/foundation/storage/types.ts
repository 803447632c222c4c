import type { Kysely } from 'kysely';
import type { EntryInput, JsonValue } from '../../core/index.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { Database } from './schema.js';
import type { RevocationFeed } from './session-revocations.js';

/**
 * The gateway's storage, behind small interfaces. SQLite
 * (Kysely over better-sqlite3) fills them by default; PostgreSQL and Redis
 * fill the same interfaces for several instances. Times are epoch
 * milliseconds passed in by the caller, so tests control the clock.
 */
export interface Storage {
  /**
   * The SQL database, for the stores of the tables a feature owns
   * (feature-tables.ts): the composition root (app/open-storage.ts) builds
   * them over it. Closed with the storage.
   */
  readonly kysely: Kysely<Database>;
  readonly entries: EntryStore;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly pendingSignIns: PendingSignInStore;
  /**
   * What an entry's upstream provider left for a session signed in with it:
   * its sid for back-channel logout, tokens to re-check and sign out with
   * (upstream-session-store.ts). The gateway as a relying party; the gateway
   * as an OpenID Provider keeps its own stores (features/openid-provider/storage/).
   */
  readonly upstreamSessions: UpstreamSessionStore;
  readonly audit: AuditStore;
  readonly apiTokens: ApiTokenStore;
  /** Application tokens of entries with an appToken call, shared by every instance. */
  readonly appTokens: AppTokenStore;
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
   * upstream providers' sessions, ended rate-limit windows, test sign-ins a
   * day after their trace expired, and those of the features' own tables
   * (feature-tables.ts: the OpenID Provider's retired signing keys no longer
   * published, its codes and tokens that are over). Where several instances share a database
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
export type TogetherStores = Pick<Storage, 'users' | 'sessions' | 'upstreamSessions' | 'audit'>;

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
  /**
   * With sessions in Redis: those a sign-in committed but did not write
   * there, written from their records (session-write-ahead.ts).
   */
  readonly sessionsRecovered?: number;
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
  /**
   * The second factor given in this sign-in, last (docs/security.md#second-factor):
   * absent until one is. A host's session copies its sign-in's when a
   * handoff makes it, and is updated with it (SessionStore.recordFactor).
   */
  readonly factor?: SessionFactor;
}

/** Which second factor a session was given, and when. */
export interface SessionFactor {
  /** `totp` (a one-time code), `recovery` (a recovery code) or `webauthn` (a passkey or security key). */
  readonly method: string;
  readonly at: number;
}

export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  /**
   * Records a second factor on a sign-in's session and on every host's
   * session made from it (their signInHash is `signIn.idHash`), so no host
   * asks for it again; the sessions' remembered checks are forgotten
   * everywhere, like an ended session's.
   */
  recordFactor(
    signIn: { readonly idHash: string; readonly userRowId: number },
    factor: SessionFactor,
  ): Promise<void>;
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

// ------------------------------------- upstream providers' sessions (relying party)

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
/**
 * A SAML NameID beyond its value (SAML Core §2.2.2), which a LogoutRequest
 * names the user by exactly as the assertion did (§3.7.1).
 */
export interface SubjectQualifiers {
  readonly format?: string;
  readonly nameQualifier?: string;
  readonly spNameQualifier?: string;
}

/**
 * What a provider's sign-in left beside its session: an OpenID Connect
 * sign-in's (its id_token, sub and sid) or a SAML sign-in's (its NameID
 * and SessionIndex), by which the provider's logout finds the session and
 * the gateway's sign-out names it to the provider.
 */
export interface UpstreamSessionRecord {
  /** The session's idHash. */
  readonly sessionHash: string;
  readonly entryId: string;
  /** The id_token's `sub`, or the SAML assertion's NameID. */
  readonly subject: string;
  /**
   * The id_token's `sid`, or the SAML AuthnStatement's SessionIndex: the
   * provider's session, for its logout of that one session.
   */
  readonly providerSid: string | null;
  /** A SAML NameID's Format and qualifiers; null for any other sign-in. */
  readonly subjectQualifiers: SubjectQualifiers | null;
  /** Stored sealed; given as `id_token_hint` at sign-out. Empty for a sign-in without one. */
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

export interface UpstreamSessionStore {
  save(record: UpstreamSessionRecord): Promise<void>;
  get(sessionHash: string): Promise<UpstreamSessionRecord | undefined>;
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
  /**
   * Forgets what `useOnce` recorded; resolves whether it was there. A SAML
   * LogoutRequest the gateway sent is recorded so, and its LogoutResponse
   * takes it (of two deliveries, one finds it).
   */
  takeOnce(jtiHash: string): Promise<boolean>;
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
  'second_factor',
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
