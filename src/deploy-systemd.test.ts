import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { configSchema } from './foundation/config/config-schema.js';

// Compiled to build/src/, so the repository is two levels up.
const unitFile = fileURLToPath(new URL('../../deploy/ssogate.service', import.meta.url));
const systemdAnalyze = '/usr/bin/systemd-analyze';
const noSystemd = existsSync(systemdAnalyze) ? false : `${systemdAnalyze} is not installed`;
const run = promisify(execFile);

/** The unit's [Service] settings, each name with every value it is given. */
async function serviceSettings(): Promise<Map<string, string[]>> {
  const text = await readFile(unitFile, 'utf8');
  const service = text.split(/^\[Service\]$/m)[1]?.split(/^\[/m)[0] ?? '';
  const settings = new Map<string, string[]>();
  for (const line of service.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match === null) continue;
    const [, name = '', value = ''] = match;
    settings.set(name, [...(settings.get(name) ?? []), value]);
  }
  return settings;
}

test('deploy/ssogate.service sets the hardening and leaves W^X off for the JIT', async () => {
  const settings = await serviceSettings();
  const expected: Record<string, string> = {
    DynamicUser: 'yes',
    StateDirectory: 'ssogate',
    ProtectSystem: 'strict',
    NoNewPrivileges: 'yes',
    CapabilityBoundingSet: '',
    PrivateTmp: 'yes',
    ProtectHome: 'yes',
    RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
    KillSignal: 'SIGTERM',
  };
  for (const [name, value] of Object.entries(expected)) {
    assert.deepEqual(settings.get(name), [value], name);
  }
  assert.ok(settings.get('SystemCallFilter')?.includes('@system-service'));
  // V8 writes the code it compiles into memory it then runs: Node aborts under it.
  assert.equal(settings.has('MemoryDenyWriteExecute'), false);
  // The data folder the unit gives the gateway is the state directory it makes.
  assert.ok(settings.get('Environment')?.includes('SSOGATE_DATA_DIR=/var/lib/ssogate'));
  // systemd must not kill requests the gateway is still letting finish.
  const stopSeconds = Number(settings.get('TimeoutStopSec')?.[0]);
  const shutdownSeconds = configSchema.shape.shutdownTimeoutSeconds.parse(undefined);
  assert.ok(stopSeconds > shutdownSeconds, `TimeoutStopSec ${stopSeconds} ≤ ${shutdownSeconds}`);
});

test(
  'systemd-analyze verifies the unit and rates its exposure as it is documented',
  { skip: noSystemd },
  async () => {
    const verified = await run(systemdAnalyze, ['verify', unitFile]);
    assert.equal(verified.stderr, '');
    const { stdout } = await run(systemdAnalyze, [
      'security',
      '--offline=yes',
      '--no-pager',
      unitFile,
    ]);
    const score = /Overall exposure level for ssogate\.service: (\d+\.\d)/.exec(stdout)?.[1];
    assert.ok(score !== undefined, stdout.slice(-300));
    const deployment = await readFile(
      fileURLToPath(new URL('../../docs/deployment.md', import.meta.url)),
      'utf8',
    );
    assert.match(deployment, new RegExp(`exposure level of ${score.replace('.', '\\.')}\\b`));
  },
);
