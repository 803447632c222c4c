import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Config } from '../foundation/config/load-config.js';
import { ConfigError, loadConfig } from '../foundation/config/load-config.js';
import { databaseLine, gatewayVersion, settingsHelp } from '../foundation/config/command-line.js';
import { addressPolicy } from '../foundation/outbound/address-policy.js';
import { openStorage } from '../app/open-storage.js';
import type { GatewayStorage } from '../app/open-storage.js';
import { resetPassword } from './admin-commands.js';
import { runFileCommand } from './file-commands.js';
import { exportEntries, importEntries } from './entry-commands.js';
import { runDoctor } from './doctor/run-doctor.js';
import { addFromPreset } from './preset-command.js';
import { createToken, listTokens, revokeToken } from './token-commands.js';
import type { CommandContext } from './token-commands.js';
import { UsageError } from './usage-error.js';
import type { ClientOptionValues } from './client-commands.js';
import {
  clientOptionSpec,
  createClient,
  deleteClient,
  listClients,
  rotateClientSecret,
  settingsFromOptions,
  showClient,
  updateClient,
} from './client-commands.js';
import { rotateSigningKey } from './oidc-commands.js';

export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Storage to use instead of the configured one (tests); left open. */
  readonly storage?: GatewayStorage;
  readonly clock?: () => number;
  readonly random?: (size: number) => Uint8Array;
  /** The environment to read the configuration from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

const usage = `Usage:
  ssogate token create --name NAME   create an API token and print it once; it stops
                                     working after SSOGATE_API_TOKEN_DAYS (default 90)
      [--owner NAME]                 ... owned by the named service (default cli)
      [--expires-in 30d]             ... that stops working after 30 days (m, h, d or w)
      [--never-expires]              ... or only when revoked
  ssogate token list                 list API tokens (never the tokens themselves)
  ssogate token revoke ID            revoke an API token
  ssogate entries export FILE        write the entries to FILE (.yaml/.yml: YAML, else JSON;
                                     - : standard output), without their secrets
      [--with-secrets]               ... or with them
  ssogate entries import FILE        create or replace the file's entries; without an
                                     appsecret, an entry keeps its stored one
  ssogate admin reset-password       set a local account's password, print it once and end
                                     its sessions (the way back in when it is lost)
      [--username NAME]              ... of NAME (default admin)
      [--password-file F]            ... to the one line in F instead of a generated one
  ssogate backup FILE [--force]      copy the SQLite database to FILE while the gateway
                                     runs, and the generated key to FILE.key
  ssogate restore FILE [--force]     put a backup (and FILE.key) in place; stop the
                                     gateway first
  ssogate entries add --preset PRESET --id ID [--appid APPID]
      [--appsecret-file FILE] [--name NAME] [--param NAME=VALUE ...] [--enable]
                                     create an entry from a provider preset (docs/providers.md),
                                     disabled until tested unless --enable; prints the
                                     callback URL to register at the provider
  ssogate client list                list the OpenID clients (never a secret)
  ssogate client show CLIENT_ID      print a client's settings as JSON
  ssogate client create CLIENT_ID --name NAME --redirect-uri URI [--redirect-uri URI ...]
      [--post-logout-redirect-uri URI ...] [--backchannel-logout-uri URI]
      [--frontchannel-logout-uri URI] [--frontchannel-logout-session]
      [--entry ID ...] [--user ID ...] [--group NAME ...] [--refresh-tokens]
      [--subject-type public|pairwise] [--consent]
      [--public]                     register an OpenID client; its secret is printed once
                                     (a --public one has none and uses PKCE)
  ssogate client update CLIENT_ID [the options of create but --public]
      [--no-refresh-tokens] [--no-consent] [--no-frontchannel-logout-session]
      [--clear OPTION ...]
                                     change the settings given (a repeated option: the whole
                                     list), or empty a list (--clear entry, user, group, ...)
  ssogate client rotate-secret CLIENT_ID
                                     print a new secret once; the old one stops working
  ssogate client delete CLIENT_ID    delete a client; its codes and tokens stop working
  ssogate oidc rotate-key [--revoke] sign with the next key (published ahead) or a new one
                                     from now on; the old one stays published until the
                                     tokens it signed have expired, or, with --revoke, is
                                     removed from the key set at once
  ssogate doctor [--json]            check the configuration, database, data folder, public
                                     URL and every enabled entry's servers (docs/doctor.md)
  ssogate --version, -V              print the version and exit
  ssogate --help, -h                 print this and the settings, and exit
`;

/**
 * The `ssogate` command. Returns the exit code: 0 done, 1 failed (the
 * message, or every configuration problem), 2 a wrong command line.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The doctor opens nothing for writing and has its own --help (doctor/run-doctor.ts).
  if (argv[0] === 'doctor') return runDoctor(argv.slice(1), io);
  // As the server's own `node dist/main.js --version` (command-line.ts), reading nothing else.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`ssogate ${gatewayVersion()}\n`);
    return 0;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(
      `${usage}\nSettings, read from the environment as by the gateway:\n${settingsHelp()}`,
    );
    return 0;
  }
  // Backup and restore work on the database file itself, not through a Storage.
  if (argv[0] === 'backup' || argv[0] === 'restore') return runFileCommand(argv, io, usage);
  let command: (context: CommandContext) => Promise<void>;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    // parseArgs reports unknown options and missing values as TypeErrors.
    io.stderr.write(`ssogate: ${error.message}\n\n${usage}`);
    return 2;
  }
  try {
    await withStorage(io, (storage, config) =>
      command({
        storage,
        outboundPolicy: addressPolicy(config.outboundAllow),
        clock: io.clock ?? Date.now,
        random: io.random ?? ((size) => randomBytes(size)),
        tokenLifetimeMs: config.apiTokenLifetimeMs,
        publicUrl: config.publicUrl,
        out: (line) => io.stdout.write(`${line}\n`),
        note: (line) => io.stderr.write(`${line}\n`),
      }),
    );
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(
        `ssogate: the configuration is invalid:\n${error.problems.map((p) => `  - ${p}\n`).join('')}`,
      );
    } else {
      io.stderr.write(`ssogate: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
}

function parseCommand(argv: readonly string[]): (context: CommandContext) => Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      name: { type: 'string' },
      'with-secrets': { type: 'boolean' },
      'expires-in': { type: 'string' },
      'never-expires': { type: 'boolean' },
      revoke: { type: 'boolean' },
      owner: { type: 'string' },
      username: { type: 'string' },
      'password-file': { type: 'string' },
      preset: { type: 'string' },
      id: { type: 'string' },
      appid: { type: 'string' },
      'appsecret-file': { type: 'string' },
      param: { type: 'string', multiple: true },
      enable: { type: 'boolean' },
      ...clientOptionSpec,
    },
    allowPositionals: true,
    strict: true,
  });
  const [given, action, ...rest] = positionals;
  // `tokens` and `clients` read as naturally as `token` and `client`: both are accepted.
  const group = given === 'tokens' ? 'token' : given === 'clients' ? 'client' : given;
  const optionsGiven = Object.keys(values).filter(
    (option) => values[option as keyof typeof values] !== undefined,
  );
  if (group === 'client') return clientCommand(action, rest, values, optionsGiven);
  if (group === 'oidc') return oidcCommand(action, rest, optionsGiven);
  if (values.revoke !== undefined) throw new UsageError('--revoke belongs to oidc rotate-key only');
  if (group !== 'token' && group !== 'entries' && group !== 'admin')
    throw new UsageError(group === undefined ? 'no command' : `unknown command "${group}"`);
  const misplacedClientOption = optionsGiven.find((option) => option in clientOptionSpec);
  if (misplacedClientOption !== undefined)
    throw new UsageError(`--${misplacedClientOption} belongs to client create and update only`);
  if (group === 'admin') return adminCommand(action, rest, values);
  for (const option of ['username', 'password-file'] as const) {
    if (values[option] !== undefined)
      throw new UsageError(`--${option} belongs to admin reset-password only`);
  }
  const presetOptions = ['preset', 'id', 'appid', 'appsecret-file', 'param', 'enable'] as const;
  if (group === 'entries' && action === 'add') return presetCommand(rest, values);
  const misplaced = presetOptions.find((option) => values[option] !== undefined);
  if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to entries add only`);
  if (group === 'entries') return entriesCommand(action, rest, values);
  if (values['with-secrets'] !== undefined)
    throw new UsageError('--with-secrets belongs to entries export only');
  if (action === 'create' && rest.length === 0) return tokenCreateCommand(values);
  for (const option of ['expires-in', 'never-expires', 'owner'] as const) {
    if (values[option] !== undefined)
      throw new UsageError(`--${option} belongs to token create only`);
  }
  if (values.name !== undefined) throw new UsageError('--name belongs to token create only');
  if (action === 'list' && rest.length === 0) return listTokens;
  const id = rest[0];
  if (action === 'revoke' && id !== undefined && rest.length === 1)
    return (context) => revokeToken(context, id);
  throw new UsageError(
    `unknown or incomplete command "token${action === undefined ? '' : ` ${action}`}"`,
  );
}

function tokenCreateCommand(values: {
  readonly name?: string | undefined;
  readonly owner?: string | undefined;
  readonly 'expires-in'?: string | undefined;
  readonly 'never-expires'?: boolean | undefined;
}): (context: CommandContext) => Promise<void> {
  if (values.name === undefined) throw new UsageError('token create needs --name NAME');
  const given = values['expires-in'];
  if (given !== undefined && values['never-expires'] === true)
    throw new UsageError('--expires-in and --never-expires cannot be given together');
  const lifetimeMs = given === undefined ? undefined : durationMs(given);
  if (lifetimeMs === null)
    throw new UsageError(
      `--expires-in "${given ?? ''}" is not a duration such as 90m, 12h, 30d or 2w`,
    );
  const request = {
    name: values.name,
    owner: values.owner ?? 'cli',
    lifetime: values['never-expires'] === true ? ('never' as const) : lifetimeMs,
  };
  return (context) => createToken(context, request);
}

const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/** "30d" as milliseconds: a whole number of minutes, hours, days or weeks; null if not one. */
function durationMs(text: string): number | null {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(text);
  if (match === null) return null;
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}

function adminCommand(
  action: string | undefined,
  rest: readonly string[],
  values: {
    readonly name?: string | undefined;
    readonly 'with-secrets'?: boolean | undefined;
    readonly username?: string | undefined;
    readonly 'password-file'?: string | undefined;
  },
): (context: CommandContext) => Promise<void> {
  if (action !== 'reset-password' || rest.length > 0) {
    throw new UsageError(
      `unknown or incomplete command "admin${action === undefined ? '' : ` ${action}`}"`,
    );
  }
  if (values.name !== undefined) throw new UsageError('--name belongs to token create only');
  if (values['with-secrets'] !== undefined)
    throw new UsageError('--with-secrets belongs to entries export only');
  const options = { username: values.username ?? 'admin', passwordFile: values['password-file'] };
  return (context) => resetPassword(context, options);
}

function entriesCommand(
  action: string | undefined,
  rest: readonly string[],
  values: { readonly name?: string | undefined; readonly 'with-secrets'?: boolean | undefined },
): (context: CommandContext) => Promise<void> {
  const file = rest[0];
  if (values.name !== undefined) throw new UsageError('--name belongs to token create only');
  if (file === undefined || rest.length !== 1 || (action !== 'export' && action !== 'import')) {
    throw new UsageError(
      `unknown or incomplete command "entries${action === undefined ? '' : ` ${action}`}"`,
    );
  }
  if (action === 'import') {
    if (values['with-secrets'] !== undefined)
      throw new UsageError('--with-secrets belongs to entries export only');
    return (context) => importEntries(context, file);
  }
  const withSecrets = values['with-secrets'] === true;
  return (context) => exportEntries(context, file, withSecrets);
}

/** The options each `client` command takes. */
const clientCommandOptions: Readonly<Record<string, readonly string[]>> = {
  list: [],
  show: [],
  delete: [],
  'rotate-secret': [],
  create: ['name', ...Object.keys(clientOptionSpec).filter((option) => option !== 'clear')],
  update: ['name', ...Object.keys(clientOptionSpec).filter((option) => option !== 'public')],
};

function clientCommand(
  action: string | undefined,
  rest: readonly string[],
  values: ClientOptionValues,
  optionsGiven: readonly string[],
): (context: CommandContext) => Promise<void> {
  const accepted = action === undefined ? undefined : clientCommandOptions[action];
  const clientId = rest[0];
  if (accepted === undefined || rest.length !== (action === 'list' ? 0 : 1)) {
    throw new UsageError(
      `unknown or incomplete command "client${action === undefined ? '' : ` ${action}`}"`,
    );
  }
  const misplaced = optionsGiven.find((option) => !accepted.includes(option));
  if (misplaced !== undefined)
    throw new UsageError(`--${misplaced} does not belong to client ${action ?? ''}`);
  if (action === 'list' || clientId === undefined) return listClients;
  if (action === 'show') return (context) => showClient(context, clientId);
  if (action === 'delete') return (context) => deleteClient(context, clientId);
  if (action === 'rotate-secret') return (context) => rotateClientSecret(context, clientId);
  const settings = settingsFromOptions(values);
  if (action === 'update') {
    if (optionsGiven.length === 0) throw new UsageError('client update needs an option to change');
    return (context) => updateClient(context, clientId, settings);
  }
  if (values.name === undefined || values['redirect-uri'] === undefined)
    throw new UsageError('client create needs --name NAME and --redirect-uri URI');
  return (context) => createClient(context, clientId, settings);
}

function oidcCommand(
  action: string | undefined,
  rest: readonly string[],
  optionsGiven: readonly string[],
): (context: CommandContext) => Promise<void> {
  if (action !== 'rotate-key' || rest.length > 0) {
    throw new UsageError(
      `unknown or incomplete command "oidc${action === undefined ? '' : ` ${action}`}"`,
    );
  }
  const misplaced = optionsGiven.find((option) => option !== 'revoke');
  if (misplaced !== undefined)
    throw new UsageError(`--${misplaced} does not belong to oidc rotate-key`);
  return (context) => rotateSigningKey(context, { revoke: optionsGiven.includes('revoke') });
}

/** Opens the configured storage as the server does, unless one is given. */
async function withStorage(
  io: CliIo,
  run: (storage: GatewayStorage, config: Config) => Promise<void>,
): Promise<void> {
  const config = loadConfig(io.env);
  if (io.storage !== undefined) return run(io.storage, config);
  io.stderr.write(`${databaseLine(config)}\n`);
  const storage = await openStorage(config);
  try {
    await run(storage, config);
  } finally {
    await storage.close();
  }
}

function presetCommand(
  rest: readonly string[],
  values: {
    readonly name?: string | undefined;
    readonly 'with-secrets'?: boolean | undefined;
    readonly preset?: string | undefined;
    readonly id?: string | undefined;
    readonly appid?: string | undefined;
    readonly 'appsecret-file'?: string | undefined;
    readonly param?: string[] | undefined;
    readonly enable?: boolean | undefined;
  },
): (context: CommandContext) => Promise<void> {
  if (rest.length > 0) throw new UsageError('entries add takes options only');
  if (values['with-secrets'] !== undefined)
    throw new UsageError('--with-secrets belongs to entries export only');
  const { preset, id, appid } = values;
  // --appid is checked against the preset: a SAML preset's entry has no client id.
  if (preset === undefined || id === undefined) {
    throw new UsageError('entries add needs --preset PRESET and --id ID');
  }
  const options = {
    preset,
    id,
    appid,
    name: values.name,
    appsecretFile: values['appsecret-file'],
    parameters: values.param ?? [],
    enable: values.enable === true,
  };
  return (context) => addFromPreset(context, options);
}
