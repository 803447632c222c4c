import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox } from '../foundation/crypto/secret-box.js';
import type { SecretBox } from '../foundation/crypto/secret-box.js';
import type { NewAuditEvent } from '../foundation/storage/types.js';

/**
 * What storage tests build without a database: a key, a folder, an event.
 * Kept apart from storage-fixtures.ts, which opens the suite's backend, so
 * that a test importing only these runs once, not again on every backend
 * (scripts/test-selection.js follows imports).
 */

export function newSecretBox(): SecretBox {
  return createSecretBox(new Uint8Array(randomBytes(32)));
}

/** A temporary directory for database files, removed afterwards. */
export async function withTempDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-storage-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A successful sign-in of alice at corp, at `at`; `overrides` make any other event. */
export function auditEvent(at: number, overrides: Partial<NewAuditEvent> = {}): NewAuditEvent {
  return {
    at,
    kind: 'sign_in',
    outcome: 'success',
    entryId: 'corp',
    userId: 'alice',
    actor: null,
    code: null,
    reference: null,
    durationMs: 12,
    detail: null,
    ...overrides,
  };
}
