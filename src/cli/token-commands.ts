import { issueApiToken, revokeApiToken } from '../admin-api/api-tokens.js';
import type { AddressPolicy } from '../outbound/address-policy.js';
import type { ApiTokenRecord, Storage } from '../storage/types.js';
import { recordCliChange } from './cli-audit.js';

export interface CommandContext {
  readonly storage: Storage;
  /** Which hosts imported entries may call (SSOGATE_OUTBOUND_ALLOW). */
  readonly outboundPolicy: AddressPolicy;
  readonly clock: () => number;
  readonly random: (size: number) => Uint8Array;
  readonly out: (line: string) => void;
  readonly note: (line: string) => void;
}

/** Creates an API token and prints it once (api-tokens.ts says how it is made). */
export async function createToken(
  context: CommandContext,
  name: string,
  lifetimeMs?: number,
): Promise<void> {
  const now = context.clock();
  const { record, secret } = await issueApiToken(
    context.storage.apiTokens,
    name,
    now,
    context.random,
    lifetimeMs === undefined ? null : now + lifetimeMs,
  );
  const expires = record.expiresAt === null ? undefined : new Date(record.expiresAt).toISOString();
  await recordChange(context, now, {
    action: 'create',
    tokenId: record.id,
    name,
    ...(expires === undefined ? {} : { expiresAt: expires }),
  });
  context.out(secret);
  // On stderr, so `TOKEN=$(ssogate token create ...)` captures the token alone.
  context.note(
    `Created API token ${record.id} "${name}"${expires === undefined ? '' : `, valid until ${expires}`}. Keep it now: it is not shown again.`,
  );
}

export async function listTokens(context: CommandContext): Promise<void> {
  const rows = (await context.storage.apiTokens.list()).map(describe);
  const header = ['ID', 'NAME', 'CREATED', 'LAST USED', 'REVOKED', 'EXPIRES'];
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
  try {
    await revokeApiToken(context.storage.apiTokens, id, now);
  } catch (error) {
    throw new Error(`${(error as Error).message}; see ssogate token list`, { cause: error });
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
    time(token.expiresAt),
  ];
}

function recordChange(
  context: CommandContext,
  at: number,
  detail: Record<string, string>,
): Promise<void> {
  return recordCliChange(context, at, 'token_change', null, detail);
}
