import type { JsonValue } from '../../../core/index.js';

/**
 * The stores of the gateway as an OpenID Provider (docs/openid-provider.md),
 * over tables of its own (provider-tables.ts, migrations/) in the gateway's
 * database: the storage kernel (src/foundation/storage/) knows nothing of
 * them, and the composition root (app/open-storage.ts) adds them to the
 * gateway's storage (provider-stores.ts). Times are epoch milliseconds
 * passed in by the caller, as in the kernel's stores.
 */

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

export interface ProviderClientStore {
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

export interface ProviderSigningKeyStore {
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
  /**
   * The gateway's acr values its authorization request asked for, in the
   * client's order of preference (docs/openid-provider.md#assurance-acr);
   * absent when it asked for none.
   */
  readonly acrValues?: readonly string[];
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

/** A code as found without using it: unused and unexpired, used before, or nothing of the client's. */
type CodeFound =
  | { readonly outcome: 'unused' | 'replayed'; readonly code: OidcCodeRecord }
  | { readonly outcome: 'unknown' };

/** A refresh token as found, as for a code. */
type RefreshTokenFound =
  | { readonly outcome: 'unused' | 'replayed'; readonly token: OidcRefreshTokenRecord }
  | { readonly outcome: 'unknown' };

export interface ProviderGrantStore {
  /**
   * Runs `work` with this store over one transaction: its writes commit
   * together when it resolves, and not at all when it throws (a redemption
   * and the tokens it is exchanged for; a grant and its code). `work` must
   * only use the store it is given, and wait on nothing else: on SQLite
   * every other query waits until it ends.
   */
  writeTogether<T>(work: (grants: ProviderGrantStore) => Promise<T>): Promise<T>;
  addCode(code: OidcCodeRecord): Promise<void>;
  /**
   * The client's code, read without using it: `unused` (and unexpired),
   * `replayed` (used before), or `unknown`, as redeemCode would find it
   * now; only redeemCode decides which of two presentations uses it.
   */
  findCode(codeHash: string, clientId: string, now: number): Promise<CodeFound>;
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
  /** As findCode, for a refresh token. */
  findRefreshToken(tokenHash: string, clientId: string, now: number): Promise<RefreshTokenFound>;
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
   * RETURNING), then their access and refresh tokens, in one transaction,
   * and resolves the grants deleted. Of two callers at once, each grant goes to one alone:
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
