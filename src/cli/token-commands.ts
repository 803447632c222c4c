import { sha256Base64url } from '../crypto/hash.js';
import type { ApiTokenRecord, Storage } from '../storage/types.js';

export interface CommandContext {
  readonly storage: Storage;
  readonly clock: () => number;
  readonly random: (size: number) => Uint8Array;
  readonly out: (line: string) => void;
  readonly note: (line: string) => void;
}

/** Token names become audit actors ("token:NAME"), so keep them plain. */
const tokenNamePattern = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * Creates an API token and prints it once: 256 random bits, base64url, with
 * an `ssg_` prefix so a leaked token is recognisable (secret scanners match
 * on prefixes). Only its SHA-256 is stored.
 */
export async function createToken(context: CommandContext, name: string): Promise<void> {
  if (!tokenNamePattern.test(name)) {
    throw new Error(
      'the name must be 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit',
    );
  }
  const tokens = context.storage.apiTokens;
  if ((await tokens.list()).some((token) => token.name === name && token.revokedAt === null)) {
    // Two live tokens with one name could not be told apart in the audit log.
    throw new Error(
      `an unrevoked token is named "${name}" already; revoke it or choose another name`,
    );
  }
  const token = `ssg_${Buffer.from(context.random(32)).toString('base64url')}`;
  const id = Buffer.from(context.random(6)).toString('hex');
  const now = context.clock();
  await tokens.create({ id, name, tokenHash: sha256Base64url(token), createdAt: now });
  await recordChange(context, now, { action: 'create', tokenId: id, name });
  context.out(token);
  // On stderr, so `TOKEN=$(ssogate token create ...)` captures the token alone.
  context.note(`Created API token ${id} "${name}". Keep it now: it is not shown again.`);
}

export async function listTokens(context: CommandContext): Promise<void> {
  const rows = (await context.storage.apiTokens.list()).map(describe);
  const header = ['ID', 'NAME', 'CREATED', 'LAST USED', 'REVOKED'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of [header, ...rows]) {
    context.out(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}

export async function revokeToken(context: CommandContext, id: string): Promise<void> {
  const now = context.clock();
  if (!(await context.storage.apiTokens.revoke(id, now))) {
    throw new Error(`no unrevoked token has the id "${id}"; see ssogate token list`);
  }
  await recordChange(context, now, { action: 'revoke', tokenId: id });
  context.out(`revoked ${id}`);
}

function describe(token: ApiTokenRecord): string[] {
  const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
  return [
    token.id,
    token.name,
    time(token.createdAt),
    time(token.lastUsedAt),
    time(token.revokedAt),
  ];
}

/** Token changes are configuration changes: the audit log shows them (SPEC 9). */
async function recordChange(
  context: CommandContext,
  at: number,
  detail: Record<string, string>,
): Promise<void> {
  await context.storage.audit.append({
    at,
    kind: 'token_change',
    outcome: 'success',
    entryId: null,
    userId: null,
    actor: 'cli',
    code: null,
    reference: null,
    durationMs: null,
    detail,
  });
}
