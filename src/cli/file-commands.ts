import { parseArgs } from 'node:util';
import { isSsogateError } from '../core/index.js';
import { databaseLine } from '../foundation/config/command-line.js';
import { ConfigError, loadConfig } from '../foundation/config/load-config.js';
import { BackupError, backupDatabase, restoreDatabase } from './backup-commands.js';

interface FileCommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `ssogate backup FILE [--force]` and `ssogate restore FILE [--force]`.
 * Returns the exit code: 0 done, 1 failed (the message), 2 a wrong command
 * line (with the usage).
 */
export async function runFileCommand(
  argv: readonly string[],
  io: FileCommandIo,
  usage: string,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { force: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr.write(`ssogate: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const [command, file, ...rest] = parsed.positionals;
  if (file === undefined || file === '' || rest.length > 0) {
    io.stderr.write(`ssogate: ${command ?? ''} needs one FILE\n\n${usage}`);
    return 2;
  }
  const force = parsed.values.force === true;
  const print = {
    out: (line: string) => io.stdout.write(`${line}\n`),
    note: (line: string) => io.stderr.write(`${line}\n`),
  };
  try {
    const config = loadConfig(io.env);
    print.note(databaseLine(config));
    if (command === 'backup') await backupDatabase(config, file, force, print);
    else await restoreDatabase(config, file, force, print);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(
        `ssogate: the configuration is invalid:\n${error.problems.map((p) => `  - ${p}\n`).join('')}`,
      );
    } else if (error instanceof BackupError) {
      io.stderr.write(`ssogate: ${error.message}\n`);
    } else if (isSsogateError(error)) {
      io.stderr.write(`ssogate: ${error.code}: ${error.message}\n`);
    } else {
      io.stderr.write(`ssogate: ${command ?? ''} failed: ${String(error)}\n`);
    }
    return 1;
  }
}
