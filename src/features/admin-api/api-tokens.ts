import { SsogateError } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type {
  ApiTokenOwner,
  ApiTokenRecord,
  ApiTokenStore,
  Storage,
} from '../../foundation/storage/types.js';
import { invalidField } from './api-failure.js';

/** Token names become audit actors ("token:NAME"), so keep them plain. */
export const tokenNamePattern = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export const tokenNameRule =
  'must be 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit';

interface IssuedToken {
  readonly record: ApiTokenRecord;
  /** The token itself: shown once, never stored. */
  readonly secret: string;
}

/** What a new API token is: its name, whose rights it stands on, and when it ends by itself. */
interface NewApiToken {
  readonly name: string;
  readonly owner: ApiTokenOwner;
  /** Null: until revoked, which its maker asked for explicitly. */
  readonly expiresAt: number | null;
}

/**
 * Creates an API token, for the CLI and the API alike: 256 random bits,
 * base64url, with an `ssg_` prefix so a leaked token is recognisable (secret
 * scanners match on prefixes). Only its SHA-256 is stored, with its owner.
 */
export async function issueApiToken(
  tokens: ApiTokenStore,
  { name, owner, expiresAt }: NewApiToken,
  now: number,
  random: (size: number) => Uint8Array,
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
    owner,
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

/**
 * Why the owner of a token can no longer use the admin API, or undefined
 * when they still can. Read from the shared database at every call (no
 * instance remembers it), so that a change made on any instance, by the
 * CLI, or by a sign-in that took a group away ends the owner's tokens at the
 * very next request everywhere. A service owner (`ssogate token create`)
 * and a token made before owners were recorded have no user to check:
 * revoking the token is what ends them.
 */
export async function ownerRefusal(
  storage: Pick<Storage, 'users' | 'entries'>,
  owner: ApiTokenOwner | null,
): Promise<string | undefined> {
  if (owner?.kind !== 'user') return undefined;
  const user = await storage.users.get(owner.userRowId);
  // A row of another userId is a row id used again after the owner's was deleted.
  if (user?.userId !== owner.userId) return `its owner ${owner.userId} no longer exists`;
  if (!user.enabled) return `its owner ${owner.userId} is locked`;
  if (!user.isAdmin) return `its owner ${owner.userId} is no longer an administrator`;
  if (user.sourceEntryId !== null) {
    const entry = await storage.entries.get(user.sourceEntryId);
    if (entry?.input.enabled !== true) {
      return `its owner ${owner.userId} signs in through entry ${user.sourceEntryId}, which is disabled or deleted`;
    }
  }
  return undefined;
}

/** How the token list, the CLI and the audit log name an owner. */
export function ownerLabel(owner: ApiTokenOwner | null): string | null {
  if (owner === null) return null;
  return owner.kind === 'user' ? `user:${owner.userId}` : `service:${owner.name}`;
}
