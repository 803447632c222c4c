import { randomBytes } from 'node:crypto';
import { openStorage } from '../app/open-storage.js';
import { loadConfig } from '../foundation/config/load-config.js';
import { withTestBackend } from './test-backend.js';
import type { GatewayStorage } from '../app/open-storage.js';

/**
 * Storage for the storage tests: a real database (in-memory SQLite, or a
 * fresh PostgreSQL database and Redis prefix under SSOGATE_TEST_DATABASE_URL /
 * SSOGATE_TEST_REDIS_URL, see test-backend.ts). What needs no database (a
 * key, a folder, an event) is in storage-values.ts.
 */

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
