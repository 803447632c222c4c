import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settings } from './config-schema.js';
import type { Config } from './load-config.js';

/**
 * The settings, one per line with its environment variable and what it
 * takes, for `--help`. The data folder comes first: it decides which
 * database a command changes, and a demo keeps its own (`./data-demo`).
 */
export function settingsHelp(): string {
  const all: readonly { readonly env: string; readonly help: string }[] = Object.values(settings);
  const isDataDir = (setting: { readonly env: string }) => setting.env === 'SSOGATE_DATA_DIR';
  const ordered = [...all.filter(isDataDir), ...all.filter((setting) => !isDataDir(setting))];
  const width = Math.max(...ordered.map((setting) => setting.env.length));
  return ordered.map((setting) => `  ${setting.env.padEnd(width)}  ${setting.help}\n`).join('');
}

/**
 * The gateway's version, from the package.json above this module: two
 * folders up in the test build (build/src/foundation/config/), one in dist/ (dist/foundation/config/).
 */
export function gatewayVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth += 1) {
    folder = dirname(folder);
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === 'ssogate' && typeof manifest.version === 'string')
        return manifest.version;
    } catch {
      // Not here: one folder up.
    }
  }
  return 'unknown';
}

const serverUsage = `Usage: node dist/main.js [--help | --version]

Starts the gateway (npm start runs it). It takes no other argument: every
setting comes from the environment (docs/configuration.md).

Settings:
`;

/** What the server's command line asks for: to start, to print something and exit, or a mistake. */
type ServerCommand =
  | { readonly kind: 'start' }
  | { readonly kind: 'print'; readonly text: string }
  | { readonly kind: 'refuse'; readonly text: string };

/** Reads the server's arguments: `--help` and `--version` answer, anything else is refused. */
export function serverCommand(argv: readonly string[]): ServerCommand {
  const [first] = argv;
  if (first === undefined) return { kind: 'start' };
  if (argv.length === 1 && (first === '--help' || first === '-h'))
    return { kind: 'print', text: `${serverUsage}${settingsHelp()}` };
  if (argv.length === 1 && (first === '--version' || first === '-V'))
    return { kind: 'print', text: `ssogate ${gatewayVersion()}\n` };
  const unknown = argv.find((argument) => !['--help', '-h', '--version', '-V'].includes(argument));
  return {
    kind: 'refuse',
    text: `ssogate: ${unknown === undefined ? 'give one of --help and --version' : `unknown argument "${unknown}"`}\n\n${serverUsage}${settingsHelp()}`,
  };
}

/**
 * The database a command works on, for the line every CLI command prints
 * first: a demo keeps its data in another folder than `npm start`, and a
 * command run against the wrong one changes nothing the user is looking at.
 * A PostgreSQL URL is shown without its password, and with every server
 * it lists: not parsed as a WHATWG URL, which refuses libpq's list of
 * several servers (`postgres://user@db1:5432,db2:5432/ssogate`).
 */
export function databaseLine(config: Pick<Config, 'database' | 'dataDir'>): string {
  if (config.database.kind === 'sqlite')
    return `ssogate: the SQLite database ${config.database.filename} (data folder ${config.dataDir})`;
  const shown = config.database.url.replace(/^([a-z]+:\/\/[^:@/?#]*:)[^@/?#]*@/i, '$1***@');
  return `ssogate: the PostgreSQL database ${shown}`;
}
