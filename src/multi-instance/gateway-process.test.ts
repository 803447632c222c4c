import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../test-support/free-port.js';
import { startGatewayProcess } from './test-support/gateway-process.js';

/**
 * The multi-instance tests stop their gateway processes in `after` hooks,
 * also after a failure in which the process already died: stopping one
 * that a signal ended must resolve (its 'exit' event has passed), or the
 * test file would wait forever instead of reporting the failure.
 */
test('stopping a gateway process that a signal already ended resolves', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-process-'));
  try {
    const gateway = await startGatewayProcess(await freePort(), {
      SSOGATE_DATA_DIR: dir,
      SSOGATE_ADMIN_PASSWORD: 'gateway-process-admin',
      SSOGATE_LOG_LEVEL: 'warn',
    });
    assert.equal(await gateway.signal('SIGKILL'), null);
    const stopped = await Promise.race([
      gateway.stop().then(() => 'stopped'),
      delay(5_000, 'still waiting'),
    ]);
    assert.equal(stopped, 'stopped');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
