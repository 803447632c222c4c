#!/usr/bin/env node
/**
 * `npm start`: one process on the embedded SQLite database, configured by the
 * environment (docs/configuration.md). Every configuration problem is
 * reported at once, then the process exits non-zero. With SSOGATE_WORKERS
 * above 1 this process is the primary of that many workers, and each worker
 * runs this file again (app/worker-pool.ts).
 */
// The only static import: an older Node.js is told which versions to use,
// before the SQLite addon could crash it without a word (app/node-support.ts).
import { exitUnlessNodeSupported } from './app/node-support.js';

exitUnlessNodeSupported();
// It may start the process again with a smaller young generation, before the
// gateway's modules are read (the rest is imported below, so they are read
// once, by the process that runs).
await import('./app/young-generation.js');

const [
  { default: cluster },
  { exitOnStop },
  { forkedByPrimary, runPrimary, runWorker },
  { startGateway },
  { serverCommand },
  { ConfigError, loadConfig },
  { isSsogateError },
] = await Promise.all([
  import('node:cluster'),
  import('./app/graceful-stop.js'),
  import('./app/worker-pool.js'),
  import('./app/start-gateway.js'),
  import('./foundation/config/command-line.js'),
  import('./foundation/config/load-config.js'),
  import('./core/errors/ssogate-error.js'),
]);

async function main(): Promise<void> {
  const command = serverCommand(process.argv.slice(2));
  if (command.kind !== 'start') {
    // Answered before any setting is read, so --help creates no data folder.
    (command.kind === 'print' ? process.stdout : process.stderr).write(command.text);
    process.exitCode = command.kind === 'print' ? 0 : 2;
    return;
  }
  const config = loadConfig();
  if (forkedByPrimary()) {
    await runWorker(config);
    return;
  }
  // Only a primary can fork; a worker of another cluster manager runs alone.
  if (config.workers > 1 && cluster.isPrimary) {
    await runPrimary(config);
    return;
  }
  const gateway = await startGateway(config);
  // Requests under way finish, up to the time-out; exit 0 only if none was cut off.
  exitOnStop(gateway, config.shutdownTimeoutMs, ['SIGINT', 'SIGTERM']);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || isSsogateError(error)) {
    process.stderr.write(`ssogate cannot start. ${error.message}\n`);
  } else {
    process.stderr.write(
      `ssogate cannot start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
