import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { entryInput } from '../core/index.js';
import type { EntryInput } from '../core/index.js';
import { createSecretBox } from '../crypto/secret-box.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { openSqliteStorage } from './sqlite/open-sqlite-storage.js';
import type { Storage } from './types.js';

/** Helpers for the storage tests: real SQLite, a fresh key per test. */

export function newSecretBox(): SecretBox {
  return createSecretBox(new Uint8Array(randomBytes(32)));
}

/** Runs `run` against a fresh in-memory database and closes it afterwards. */
export async function withMemoryStorage(run: (storage: Storage) => Promise<void>): Promise<void> {
  const storage = await openSqliteStorage({ filename: ':memory:', secretBox: newSecretBox() });
  try {
    await run(storage);
  } finally {
    await storage.close();
  }
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

/** A valid entry, parsed as the API would, so its shape is exactly EntryInput's. */
export function sampleEntry(
  id: string,
  overrides: Partial<z.input<typeof entryInput>> = {},
): EntryInput {
  return entryInput.parse({
    id,
    name: `Entry ${id}`,
    enabled: true,
    authorizeUrl: 'https://idp.example/authorize?client_id=${appid}&state=${state}',
    tokenUrl: 'https://idp.example/token?code=${code}',
    tokenParse: "JSON_GET($response, 'access_token')",
    userInfoUrl: 'https://idp.example/me?access_token=${access_token}',
    ...overrides,
  });
}
