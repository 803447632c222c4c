import type { Database, Millis, NullableMillis } from '../../../foundation/storage/schema.js';

/** The second factors' tables as Kysely sees them; made by migrations/. */
interface SecondFactorsTable {
  factor_id: string;
  user_row_id: number;
  /** `totp`. */
  kind: string;
  name: string;
  /** The one-time code's secret, base32, sealed. */
  secret_sealed: string;
  /** The last time step a code was accepted for; 0 before the first. */
  last_step: Millis;
  created_at: Millis;
  last_used_at: NullableMillis;
}

interface RecoveryCodesTable {
  code_hash: string;
  user_row_id: number;
  created_at: Millis;
  used_at: NullableMillis;
}

/** A passkey or security key (WebAuthn credential); made by migrations/0030. */
interface WebauthnCredentialsTable {
  factor_id: string;
  user_row_id: number;
  /** The credential id, base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The last signature counter seen; 0 for an authenticator that keeps none. */
  counter: Millis;
  /** The authenticator's transports, comma-separated (`internal`, `usb`, `hybrid`, ...). */
  transports: string;
  /** `singleDevice` (bound to one authenticator) or `multiDevice` (a synced passkey). */
  device_type: string;
  name: string;
  created_at: Millis;
  last_used_at: NullableMillis;
}

interface WebauthnChallengesTable {
  challenge_hash: string;
  session_hash: string;
  /** `register` or `authenticate`. */
  purpose: string;
  expires_at: Millis;
}

// A type rather than an interface: Kysely's withTables takes only a record.
export type SecondFactorTables = {
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
};

export type SecondFactorDatabase = Database & SecondFactorTables;
