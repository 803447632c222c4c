#!/usr/bin/env node
/**
 * `npm start`: one process on the embedded SQLite database, configured by the
 * environment (docs/configuration.md). Every configuration problem is
 * reported at once, then the process exits non-zero.
 */
import { stopGracefully } from './app/graceful-stop.js';
import { startGateway } from './app/start-gateway.js';
import { serverCommand } from './foundation/config/command-line.js';
import { ConfigError, loadConfig } from './foundation/config/load-config.js';
import { isSsogateError } from './core/index.js';

async function main(): Promise<void> {
  const command = serverCommand(process.argv.slice(2));
  if (command.kind !== 'start') {
    // Answered before any setting is read, so --help creates no data folder.
    (command.kind === 'print' ? process.stdout : process.stderr).write(command.text);
    process.exitCode = command.kind === 'print' ? 0 : 2;
    return;
  }
  const config = loadConfig();
  const gateway = await startGateway(config);
  // Requests under way finish, up to the time-out; exit 0 only if none was cut off.
  const stop = (signal: string) => {
    process.stdout.write(`${signal}: closing\n`);
    stopGracefully(gateway, config.shutdownTimeoutMs).then(
      (outcome) => {
        if (outcome === 'cut_off')
          process.stderr.write('requests still running at the shutdown time-out were cut off\n');
        process.exit(outcome === 'finished' ? 0 : 1);
      },
      (error: unknown) => {
        process.stderr.write(
          `the stop failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
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
