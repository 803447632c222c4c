import type { Kysely } from 'kysely';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import { toMillis } from '../../../foundation/storage/columns.js';
import type { SecondFactorDatabase } from './factor-tables.js';

/** A registered passkey or security key, as an assertion is checked against it. */
export interface Passkey {
  readonly factorId: string;
  readonly userRowId: number;
  /** base64url. */
  readonly credentialId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly name: string;
}

export type ChallengePurpose = 'register' | 'authenticate';

export interface PasskeyStore {
  add(passkey: Passkey, now: number): Promise<void>;
  /** The user's passkeys (for the ceremony's allowCredentials / excludeCredentials). */
  ofUser(userRowId: number): Promise<readonly Passkey[]>;
  /** A passkey by its credential id, whoever holds it. */
  byCredentialId(credentialId: string): Promise<Passkey | undefined>;
  /**
   * Accepts an assertion's signature counter in one conditional update:
   * it must exceed the one stored, unless both are zero (an authenticator
   * that keeps no counter, WebAuthn Level 3 §6.1.1). Of two instances given
   * the same assertion at once, one is told true.
   */
  useCounter(factorId: string, counter: number, now: number): Promise<boolean>;
  /** Keeps a challenge handed to a session's browser until `expiresAt`. */
  saveChallenge(
    challenge: string,
    sessionHash: string,
    purpose: ChallengePurpose,
    expiresAt: number,
  ): Promise<void>;
  /**
   * Deletes the challenge if it is this session's, for this purpose, and in
   * time: true once, for the one statement that deleted it.
   */
  takeChallenge(
    challenge: string,
    sessionHash: string,
    purpose: ChallengePurpose,
    now: number,
  ): Promise<boolean>;
}

const challengeHash = (challenge: string) => sha256Base64url(`webauthn-challenge:${challenge}`);

export function createPasskeyStore(db: Kysely<SecondFactorDatabase>): PasskeyStore {
  const columns = [
    'factor_id',
    'user_row_id',
    'credential_id',
    'public_key',
    'counter',
    'transports',
    'device_type',
    'name',
  ] as const;
  type Row = {
    factor_id: string;
    user_row_id: number;
    credential_id: string;
    public_key: string;
    counter: number | string | bigint;
    transports: string;
    device_type: string;
    name: string;
  };
  const passkeyOf = (row: Row): Passkey => ({
    factorId: row.factor_id,
    userRowId: row.user_row_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: toMillis(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    name: row.name,
  });
  return {
    async add(passkey, now) {
      await db
        .insertInto('webauthn_credentials')
        .values({
          factor_id: passkey.factorId,
          user_row_id: passkey.userRowId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.join(','),
          device_type: passkey.deviceType,
          name: passkey.name,
          created_at: now,
          last_used_at: now,
        })
        .execute();
    },

    async ofUser(userRowId) {
      const rows = await db
        .selectFrom('webauthn_credentials')
        .select(columns)
        .where('user_row_id', '=', userRowId)
        .orderBy('created_at')
        .execute();
      return rows.map(passkeyOf);
    },

    async byCredentialId(credentialId) {
      const row = await db
        .selectFrom('webauthn_credentials')
        .select(columns)
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row === undefined ? undefined : passkeyOf(row);
    },

    async useCounter(factorId, counter, now) {
      const result = await db
        .updateTable('webauthn_credentials')
        .set({ counter, last_used_at: now })
        .where('factor_id', '=', factorId)
        .where((eb) => (counter === 0 ? eb('counter', '=', 0) : eb('counter', '<', counter)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async saveChallenge(challenge, sessionHash, purpose, expiresAt) {
      await db
        .insertInto('webauthn_challenges')
        .values({
          challenge_hash: challengeHash(challenge),
          session_hash: sessionHash,
          purpose,
          expires_at: expiresAt,
        })
        .execute();
    },

    async takeChallenge(challenge, sessionHash, purpose, now) {
      const result = await db
        .deleteFrom('webauthn_challenges')
        .where('challenge_hash', '=', challengeHash(challenge))
        .where('session_hash', '=', sessionHash)
        .where('purpose', '=', purpose)
        .where('expires_at', '>=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
