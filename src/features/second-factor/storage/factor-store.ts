import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../foundation/crypto/secret-box.js';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import { toMillis, toNullableMillis } from '../../../foundation/storage/columns.js';
import type { SecondFactorDatabase } from './factor-tables.js';

/** A user's factor as listed: never its secret. */
interface FactorSummary {
  readonly factorId: string;
  readonly kind: 'totp' | 'webauthn';
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A one-time code factor with its secret opened, for checking a code. */
interface TotpFactor extends FactorSummary {
  readonly kind: 'totp';
  /** The secret, base32. */
  readonly secret: string;
}

export interface SecondFactorStore {
  /** Saves a checked one-time code factor, its secret sealed; `lastStep` the step of the code that proved it. */
  addTotp(factor: {
    readonly factorId: string;
    readonly userRowId: number;
    readonly name: string;
    readonly secret: string;
    readonly lastStep: number;
    readonly createdAt: number;
  }): Promise<void>;
  /** The user's factors of both kinds: one-time code authenticators and passkeys. */
  list(userRowId: number): Promise<readonly FactorSummary[]>;
  /** The user's one-time code factors, secrets opened. */
  totpFactors(userRowId: number): Promise<readonly TotpFactor[]>;
  /**
   * Accepts a code's time step for a factor if it is later than any accepted
   * before, in one conditional update: of two instances given the same code
   * at once, one is told true and the other false (RFC 6238 §5.2).
   */
  useStep(factorId: string, step: number, now: number): Promise<boolean>;
  /** Removes one of the user's factors; true if it was there. */
  remove(userRowId: number, factorId: string): Promise<boolean>;
  /** Replaces the user's recovery codes (shown once, stored hashed). */
  replaceRecoveryCodes(userRowId: number, codes: readonly string[], now: number): Promise<void>;
  /** Marks one unused recovery code of the user used, in one conditional update; true if it was. */
  useRecoveryCode(userRowId: number, code: string, now: number): Promise<boolean>;
  /** How many unused recovery codes the user has. */
  recoveryCodesLeft(userRowId: number): Promise<number>;
  /** Removes every factor and recovery code of the user (an administrator's reset); resolves how many factors. */
  removeAll(userRowId: number): Promise<number>;
  /**
   * An enrolment under way, sealed with the secrets' key to ride in its form
   * until a code proves it: nothing is stored before that.
   */
  sealPending(plaintext: string): string;
  /** A sealed enrolment opened; undefined for anything this key did not seal. */
  openPending(sealed: string): string | undefined;
}

/** A recovery code as stored: bound to its user, so a hash says nothing across users. */
function recoveryHash(userRowId: number, code: string): string {
  return sha256Base64url(
    `recovery:${String(userRowId)}:${code.replace(/[\s-]/g, '').toLowerCase()}`,
  );
}

function summaryOf(row: {
  readonly factor_id: string;
  readonly name: string;
  readonly created_at: number | string | bigint;
  readonly last_used_at: number | string | bigint | null;
}): Omit<FactorSummary, 'kind'> {
  return {
    factorId: row.factor_id,
    name: row.name,
    createdAt: toMillis(row.created_at),
    lastUsedAt: toNullableMillis(row.last_used_at),
  };
}

export function createSecondFactorStore(
  db: Kysely<SecondFactorDatabase>,
  secretBox: SecretBox,
): SecondFactorStore {
  const summaryColumns = [
    'factor_id',
    'kind',
    'name',
    'created_at',
    'last_used_at',
    'secret_sealed',
  ] as const;
  const listRows = (userRowId: number) =>
    db
      .selectFrom('second_factors')
      .select(summaryColumns)
      .where('user_row_id', '=', userRowId)
      .orderBy('created_at')
      .orderBy('factor_id')
      .execute();
  return {
    async addTotp(factor) {
      await db
        .insertInto('second_factors')
        .values({
          factor_id: factor.factorId,
          user_row_id: factor.userRowId,
          kind: 'totp',
          name: factor.name,
          secret_sealed: secretBox.seal(factor.secret),
          last_step: factor.lastStep,
          created_at: factor.createdAt,
          last_used_at: factor.createdAt,
        })
        .execute();
    },

    async list(userRowId) {
      const [totp, passkeys] = await Promise.all([
        listRows(userRowId),
        db
          .selectFrom('webauthn_credentials')
          .select(['factor_id', 'name', 'created_at', 'last_used_at'])
          .where('user_row_id', '=', userRowId)
          .execute(),
      ]);
      const factors: FactorSummary[] = [
        ...totp.map((row) => ({ ...summaryOf(row), kind: 'totp' as const })),
        ...passkeys.map((row) => ({ ...summaryOf(row), kind: 'webauthn' as const })),
      ];
      return factors.sort(
        (a, b) => a.createdAt - b.createdAt || a.factorId.localeCompare(b.factorId),
      );
    },

    async totpFactors(userRowId) {
      return (await listRows(userRowId))
        .filter((row) => row.kind === 'totp')
        .map((row) => ({
          factorId: row.factor_id,
          kind: 'totp' as const,
          name: row.name,
          createdAt: toMillis(row.created_at),
          lastUsedAt: toNullableMillis(row.last_used_at),
          secret: secretBox.open(row.secret_sealed),
        }));
    },

    async useStep(factorId, step, now) {
      const result = await db
        .updateTable('second_factors')
        .set({ last_step: step, last_used_at: now })
        .where('factor_id', '=', factorId)
        .where('last_step', '<', step)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async remove(userRowId, factorId) {
      let removed = 0;
      for (const table of ['second_factors', 'webauthn_credentials'] as const) {
        const result = await db
          .deleteFrom(table)
          .where('user_row_id', '=', userRowId)
          .where('factor_id', '=', factorId)
          .executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      return removed === 1;
    },

    async replaceRecoveryCodes(userRowId, codes, now) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_row_id', '=', userRowId).execute();
        if (codes.length === 0) return;
        await trx
          .insertInto('recovery_codes')
          .values(
            codes.map((code) => ({
              code_hash: recoveryHash(userRowId, code),
              user_row_id: userRowId,
              created_at: now,
              used_at: null,
            })),
          )
          .execute();
      });
    },

    async useRecoveryCode(userRowId, code, now) {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('code_hash', '=', recoveryHash(userRowId, code))
        .where('user_row_id', '=', userRowId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async recoveryCodesLeft(userRowId) {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_row_id', '=', userRowId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    sealPending: (plaintext) => secretBox.seal(`pending:${plaintext}`),

    openPending(sealed) {
      try {
        const opened = secretBox.open(sealed);
        return opened.startsWith('pending:') ? opened.slice('pending:'.length) : undefined;
      } catch {
        return undefined;
      }
    },

    async removeAll(userRowId) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_row_id', '=', userRowId).execute();
        const passkeys = await trx
          .deleteFrom('webauthn_credentials')
          .where('user_row_id', '=', userRowId)
          .executeTakeFirst();
        const result = await trx
          .deleteFrom('second_factors')
          .where('user_row_id', '=', userRowId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) + Number(passkeys.numDeletedRows);
      });
    },
  };
}
