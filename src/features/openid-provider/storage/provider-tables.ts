import type { Database, Millis, NullableMillis } from '../../../foundation/storage/schema.js';

/**
 * The OpenID Provider's tables as Kysely sees them, typed the way the
 * kernel's are (foundation/storage/schema.ts); made by migrations/.
 */
interface OidcClientsTable {
  client_id: string;
  /** SHA-256 of the client secret, base64url; null for a public client. */
  secret_hash: string | null;
  /** A JSON object: OidcClientSettings (types.ts). */
  settings: string;
  created_at: Millis;
  updated_at: Millis;
}

interface OidcSigningKeysTable {
  kid: string;
  /** The public key, a JWK as JSON. */
  public_jwk: string;
  /** The private key, a JWK as JSON, sealed. */
  private_sealed: string;
  created_at: Millis;
  retired_at: NullableMillis;
  published_until: NullableMillis;
}

interface OidcCodesTable {
  code_hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  /** The PKCE S256 challenge; null when the client sent none. */
  code_challenge: string | null;
  nonce: string | null;
  scope: string;
  user_row_id: number;
  entry_id: string | null;
  auth_time: Millis;
  expires_at: Millis;
  used_at: NullableMillis;
}

interface OidcAccessTokensTable {
  token_hash: string;
  grant_id: string;
  client_id: string;
  user_row_id: number;
  scope: string;
  expires_at: Millis;
}

interface OidcRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  client_id: string;
  user_row_id: number;
  scope: string;
  entry_id: string | null;
  auth_time: Millis;
  expires_at: Millis;
  used_at: NullableMillis;
}

interface OidcGrantsTable {
  grant_id: string;
  client_id: string;
  user_row_id: number;
  subject: string;
  entry_id: string | null;
  sign_in_hash: string;
  sid: string;
  created_at: Millis;
  /** Set once a code or refresh token of the grant is presented again; never cleared. */
  revoked_at: NullableMillis;
  /** When tokens were last added: the write that takes the row for adding them. */
  last_issued_at: NullableMillis;
  /** The acr values the authorization request asked for, space-separated; null for none. */
  acr_values: string | null;
}

// A type rather than an interface: Kysely's withTables takes only a record.
export type ProviderTables = {
  oidc_clients: OidcClientsTable;
  oidc_signing_keys: OidcSigningKeysTable;
  oidc_codes: OidcCodesTable;
  oidc_access_tokens: OidcAccessTokensTable;
  oidc_refresh_tokens: OidcRefreshTokensTable;
  oidc_grants: OidcGrantsTable;
};

/**
 * The gateway's database as the provider's stores see it: the kernel's
 * tables, and its own beside them (Kysely's withTables over Storage.kysely).
 */
export type ProviderDatabase = Database & ProviderTables;
