import type { ColumnType, Generated } from 'kysely';

/**
 * The tables as Kysely sees them. Written for both SQLite and PostgreSQL:
 * times are epoch milliseconds in `bigint` columns, which pg returns as
 * strings (hence the read type; rows go through Number() in the mappers),
 * booleans are 0/1 integers (better-sqlite3 binds no JS booleans), JSON is text.
 */
export type Millis = ColumnType<number | string | bigint, number, number>;
export type NullableMillis = ColumnType<
  number | string | bigint | null,
  number | null | undefined,
  number | null
>;
/** 0 or 1. */
type Flag = number;

export interface EntriesTable {
  id: string;
  /** The entry as validated, without id, isDefault and appsecret (those have columns). */
  definition: string;
  appsecret_sealed: string | null;
  /** The extensionSecret of an entry of type extension, sealed like the appsecret. */
  extension_secret_sealed: string | null;
  position: number;
  is_default: Flag;
  created_at: Millis;
  updated_at: Millis;
}

export interface UsersTable {
  id: Generated<number>;
  user_id: string;
  source_entry_id: string | null;
  user_name: string | null;
  email: string | null;
  mobile: string | null;
  department: string | null;
  enabled: Flag;
  is_admin: Flag;
  password_hash: string | null;
  /** A JSON object. */
  extra: string;
  /** A JSON array of text: the groups an entry mapped; null when none did. */
  group_names: string | null;
  created_at: Millis;
  updated_at: Millis;
  last_sign_in_at: NullableMillis;
}

export interface SessionsTable {
  id_hash: string;
  user_row_id: number;
  entry_id: string | null;
  created_at: Millis;
  last_seen_at: Millis;
  expires_at: Millis;
  /** The id hash of the sign-in's session a host's session came from (migration 0015); null for a sign-in's own. */
  sign_in_hash: string | null;
  /** The host a host's session was handed to, normalised (migration 0016); null for a sign-in's own. */
  host: string | null;
  /** The kind of the session's last second factor (migration 0028); null without one. */
  factor_method: string | null;
  /** When the session's last second factor was given (migration 0028); null without one. */
  factor_at: NullableMillis;
}

export interface PendingSignInsTable {
  state_hash: string;
  entry_id: string;
  return_to: string;
  binding_hash: string;
  redirect_uri: string;
  code_verifier: string | null;
  created_at: Millis;
  expires_at: Millis;
  /** An OpenID Connect sign-in's nonce (migration 0005); null otherwise. */
  nonce: string | null;
  /** A handoff's host and the sign-in it hands on (migration 0015); null for a sign-in. */
  handoff_host: string | null;
  handoff_sign_in: string | null;
  /** The user id a handoff's finish step audits (migration 0022); null for a sign-in. */
  handoff_user: string | null;
}

export interface OidcSessionsTable {
  session_hash: string;
  entry_id: string;
  subject: string;
  provider_sid: string | null;
  id_token_sealed: string;
  refresh_token_sealed: string | null;
  /** Sealed JSON of UserInfoAccess (types.ts), or null. */
  access_sealed: string | null;
  /** JSON of SubjectQualifiers (types.ts): a SAML sign-in's NameID beyond its value; else null. */
  subject_qualifiers: string | null;
  checked_at: Millis;
  expires_at: Millis;
}

interface UsedLogoutTokensTable {
  jti_hash: string;
  expires_at: Millis;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: Millis;
  kind: string;
  outcome: string;
  entry_id: string | null;
  user_id: string | null;
  actor: string | null;
  code: string | null;
  reference: string | null;
  duration_ms: number | null;
  /** A JSON object, or null. */
  detail: string | null;
}

export interface ApiTokensTable {
  id: string;
  name: string;
  token_hash: string;
  created_at: Millis;
  last_used_at: NullableMillis;
  revoked_at: NullableMillis;
  expires_at: NullableMillis;
  /** 'user' or 'service' (migration 0014); null for tokens made before owners were recorded. */
  owner_kind: string | null;
  /** The owner's users.id, for owner_kind 'user'. */
  owner_user_row_id: number | null;
  /** The owner's userId (as it was when the token was made) or the service's name. */
  owner_name: string | null;
}

interface AppTokensTable {
  entry_id: string;
  fingerprint: string;
  token_sealed: string;
  expires_at: Millis;
}

interface RateWindowsTable {
  key: string;
  count: number;
  ends_at: Millis;
  last_at: Millis;
}

/**
 * The kernel's tables. A feature's own tables (the OpenID Provider's:
 * features/openid-provider/storage/provider-tables.ts; the test sign-ins':
 * features/trial-sign-in/storage/trial-tables.ts) are typed where the
 * feature is, over the same handle (Kysely's withTables).
 */
export interface Database {
  entries: EntriesTable;
  users: UsersTable;
  sessions: SessionsTable;
  pending_sign_ins: PendingSignInsTable;
  oidc_sessions: OidcSessionsTable;
  used_logout_tokens: UsedLogoutTokensTable;
  audit_events: AuditEventsTable;
  api_tokens: ApiTokensTable;
  app_tokens: AppTokensTable;
  rate_windows: RateWindowsTable;
}

export type SqlDialect = 'sqlite' | 'postgres';
