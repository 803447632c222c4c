import {
  issueApiToken,
  ownerLabel,
  revokeApiToken,
  tokenNamePattern,
  tokenNameRule,
} from '../features/admin-api/api-tokens.js';
import type { AddressPolicy } from '../foundation/outbound/address-policy.js';
import type { ApiTokenRecord } from '../foundation/storage/types.js';
import type { GatewayStorage } from '../app/open-storage.js';
import { recordCliChange } from './cli-audit.js';
import { printTable } from './table.js';

export interface CommandContext {
  readonly storage: GatewayStorage;
  /** Which hosts imported entries may call (SSOGATE_OUTBOUND_ALLOW). */
  readonly outboundPolicy: AddressPolicy;
  readonly clock: () => number;
  readonly random: (size: number) => Uint8Array;
  /** How long a token lasts when `token create` gives no expiry (SSOGATE_API_TOKEN_DAYS). */
  readonly tokenLifetimeMs: number;
  /** SSOGATE_PUBLIC_URL, for the addresses a command tells the operator to register. */
  readonly publicUrl: string;
  readonly out: (line: string) => void;
  readonly note: (line: string) => void;
}

/** What `ssogate token create` was asked for. */
interface TokenRequest {
  readonly name: string;
  /** The named service owner the token belongs to (not a user: only revoking it ends it). */
  readonly owner: string;
  /** How long it lasts: a duration, "never" (asked for), or undefined for SSOGATE_API_TOKEN_DAYS. */
  readonly lifetime: number | 'never' | undefined;
}

/** Creates an API token and prints it once (api-tokens.ts says how it is made). */
export async function createToken(context: CommandContext, request: TokenRequest): Promise<void> {
  const { name, owner, lifetime } = request;
  if (!tokenNamePattern.test(owner)) throw new Error(`--owner ${tokenNameRule}`);
  const now = context.clock();
  const { record, secret } = await issueApiToken(
    context.storage.apiTokens,
    {
      name,
      owner: { kind: 'service', name: owner },
      expiresAt: lifetime === 'never' ? null : now + (lifetime ?? context.tokenLifetimeMs),
    },
    now,
    context.random,
  );
  const expires = record.expiresAt === null ? 'never' : new Date(record.expiresAt).toISOString();
  await recordChange(context, now, {
    action: 'create',
    tokenId: record.id,
    name,
    owner: ownerLabel(record.owner) ?? '',
    expiresAt: expires,
  });
  context.out(secret);
  // On stderr, so `TOKEN=$(ssogate token create ...)` captures the token alone.
  context.note(
    `Created API token ${record.id} "${name}" owned by service ${owner}, ${record.expiresAt === null ? 'never expiring' : `valid until ${expires}`}. Keep it now: it is not shown again.`,
  );
}

export async function listTokens(context: CommandContext): Promise<void> {
  const rows = (await context.storage.apiTokens.list()).map(describe);
  const header = ['ID', 'NAME', 'OWNER', 'CREATED', 'LAST USED', 'REVOKED', 'EXPIRES'];
  printTable(context.out, header, rows);
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

/** A token made before owners were recorded: it works until revoked, so it must stand out. */
const noOwner = 'no owner (made before owners were recorded)';

function describe(token: ApiTokenRecord): string[] {
  const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
  return [
    token.id,
    token.name,
    ownerLabel(token.owner) ?? noOwner,
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
