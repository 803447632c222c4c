import type { Config } from '../config/load-config.js';
import { createSecretBox } from '../crypto/secret-box.js';
import { loadOrCreateSecretKey } from '../crypto/secret-key.js';
import { openSqliteStorage } from '../storage/index.js';
import type { Storage } from '../storage/types.js';

/** Opens the configured storage, migrated, with app secrets sealed by the configured key. */
export async function openStorage(config: Config): Promise<Storage> {
  const key = await loadOrCreateSecretKey({
    dataDir: config.dataDir,
    ...(config.secretKey === undefined ? {} : { configuredKey: config.secretKey }),
  });
  if (config.database.kind !== 'sqlite') {
    // loadConfig refuses postgres:// until that backend exists.
    throw new Error('only SQLite storage is available');
  }
  return openSqliteStorage({ filename: config.database.filename, secretBox: createSecretBox(key) });
}
