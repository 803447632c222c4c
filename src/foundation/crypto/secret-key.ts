import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { privateDirectory, privateFile } from './private-files.js';

const KEY_BYTES = 32;
/** The generated key's file name in the data directory. */
export const KEY_FILE = 'secret.key';
const HOW_TO = 'Make one with: openssl rand -base64 32';

interface SecretKeyOptions {
  readonly dataDir: string;
  /** SSOGATE_SECRET_KEY: base64, base64url or hex of 32 bytes. */
  readonly configuredKey?: string;
}

/**
 * The key that encrypts app secrets at rest: the configured one, else the one
 * kept in the data directory, else a new one written there (0600) so a single
 * instance works with no configuration. Several instances must share one
 * configured key. The data directory is kept 0700 and the key file 0600,
 * tightened if they were left looser (private-files.ts).
 */
export async function loadOrCreateSecretKey(options: SecretKeyOptions): Promise<Uint8Array> {
  if (options.configuredKey !== undefined) {
    return parseSecretKey(options.configuredKey, 'SSOGATE_SECRET_KEY');
  }
  const path = join(options.dataDir, KEY_FILE);
  await privateDirectory(options.dataDir);
  const existing = await readIfExists(path);
  if (existing !== undefined) {
    await privateFile(path);
    return parseSecretKey(existing, path);
  }

  const key = randomBytes(KEY_BYTES);
  try {
    // 'wx' fails if another process created the file meanwhile: use theirs.
    await writeFile(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (isCode(error, 'EEXIST')) return parseSecretKey(await readFile(path, 'utf8'), path);
    throw error;
  }
  // The umask may have narrowed the mode further, never widened it; be explicit anyway.
  await chmod(path, 0o600);
  return new Uint8Array(key);
}

/** Decodes 64 hex characters or base64/base64url of exactly 32 bytes. */
export function parseSecretKey(text: string, source: string): Uint8Array {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value, 'hex'));
  // Buffer's decoder skips invalid characters silently, so check the alphabet first.
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replaceAll('+', '-').replaceAll('/', '_'), 'base64url');
    if (bytes.length === KEY_BYTES) return new Uint8Array(bytes);
  }
  throw new Error(
    `The secret key in ${source} must be 32 bytes, written as base64 or as 64 hex characters. ${HOW_TO}`,
  );
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
