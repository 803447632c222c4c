import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../app/open-storage.js';
import { loadConfig } from '../foundation/config/load-config.js';
import { createSecretBox } from '../foundation/crypto/secret-box.js';
import type { SecretBox } from '../foundation/crypto/secret-box.js';
import { withTestBackend } from './test-backend.js';
import type { NewAuditEvent } from '../foundation/storage/types.js';
import type { GatewayStorage } from '../app/open-storage.js';

/**
 * Helpers for the storage tests: a real database (in-memory SQLite, or a
 * fresh PostgreSQL database and Redis prefix under SSOGATE_TEST_DATABASE_URL /
 * SSOGATE_TEST_REDIS_URL, see test-backend.ts), a fresh key per test.
 */

export function newSecretBox(): SecretBox {
  return createSecretBox(new Uint8Array(randomBytes(32)));
}

/**
 * Runs `run` against fresh, empty storage of the suite's backend, opened as
 * the server opens it (openStorage, so Redis too when configured), and
 * closes and drops it afterwards.
 */
export async function withTestStorage(
  run: (storage: GatewayStorage) => Promise<void>,
): Promise<void> {
  await withTestBackend(async (backend) => {
    const config = loadConfig({
      ...backend.env,
      SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
      SSOGATE_LOG_LEVEL: 'silent',
    });
    const storage = await openStorage(config);
    try {
      await run(storage);
    } finally {
      await storage.close();
    }
  });
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
