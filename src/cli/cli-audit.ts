import type { JsonValue } from '../core/index.js';
import type { AuditKind } from '../foundation/storage/types.js';
import type { CommandContext } from './token-commands.js';

/**
 * Changes made from the command line are configuration changes like any
 * other: the audit log shows them, with `cli` as the actor (docs/admin-api.md).
 */
export async function recordCliChange(
  context: CommandContext,
  at: number,
  kind: Extract<
    AuditKind,
    'entry_change' | 'token_change' | 'user_change' | 'client_change' | 'key_change'
  >,
  entryId: string | null,
  detail: Readonly<Record<string, JsonValue>>,
  userId: string | null = null,
): Promise<void> {
  await context.storage.audit.append({
    at,
    kind,
    outcome: 'success',
    entryId,
    userId,
    actor: 'cli',
    code: null,
    reference: null,
    durationMs: null,
    detail,
  });
}
