import { SsogateError } from '../core/index.js';
import { sha256Base64url } from '../crypto/hash.js';
import type { ApiTokenRecord, ApiTokenStore } from '../storage/types.js';
import { invalidField } from './api-failure.js';

/** Token names become audit actors ("token:NAME"), so keep them plain. */
export const tokenNamePattern = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export const tokenNameRule =
  'must be 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit';

export interface IssuedToken {
  readonly record: ApiTokenRecord;
  /** The token itself: shown once, never stored. */
  readonly secret: string;
}

/**
 * Creates an API token, for the CLI and the API alike: 256 random bits,
 * base64url, with an `ssg_` prefix so a leaked token is recognisable (secret
 * scanners match on prefixes). Only its SHA-256 is stored.
 */
export async function issueApiToken(
  tokens: ApiTokenStore,
  name: string,
  now: number,
  random: (size: number) => Uint8Array,
  expiresAt: number | null = null,
): Promise<IssuedToken> {
  if (!tokenNamePattern.test(name)) throw invalidField('name', tokenNameRule);
  if (expiresAt !== null && expiresAt <= now) {
    throw invalidField('expiresAt', 'must be in the future');
  }
  const live = (token: ApiTokenRecord) =>
    token.revokedAt === null && (token.expiresAt === null || token.expiresAt > now);
  if ((await tokens.list()).some((token) => token.name === name && live(token))) {
    // Two live tokens with one name could not be told apart in the audit log.
    throw new SsogateError(
      'api_token_name_taken',
      `an unrevoked token is named "${name}" already; revoke it or choose another name`,
    );
  }
  const secret = `ssg_${Buffer.from(random(32)).toString('base64url')}`;
  const id = Buffer.from(random(6)).toString('hex');
  await tokens.create({
    id,
    name,
    tokenHash: sha256Base64url(secret),
    createdAt: now,
    expiresAt,
  });
  const record = (await tokens.list()).find((token) => token.id === id);
  if (record === undefined) throw new Error(`API token ${id} vanished after insert.`);
  return { record, secret };
}

/** Revokes a token; not_found when it is unknown or revoked already. */
export async function revokeApiToken(
  tokens: ApiTokenStore,
  id: string,
  now: number,
): Promise<void> {
  if (!(await tokens.revoke(id, now))) {
    throw new SsogateError('not_found', `no unrevoked token has the id "${id}"`);
  }
}
