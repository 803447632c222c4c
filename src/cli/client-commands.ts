import type { z } from 'zod';
import type { JsonValue } from '../core/index.js';
import { RequestInvalidError, parseInput } from '../features/admin-api/api-failure.js';
import type { ClientChange } from '../features/openid-provider/admin/oidc-clients.js';
import {
  createOidcClient,
  deleteOidcClient,
  existingOidcClient,
  oidcClientCreateBody,
  oidcClientSettings,
  rotateOidcClientSecret,
  updateOidcClient,
} from '../features/openid-provider/admin/oidc-clients.js';
import { presentOidcClient } from '../features/openid-provider/admin/client-answers.js';
import type { OidcClientRecord } from '../features/openid-provider/storage/types.js';
import { recordCliChange } from './cli-audit.js';
import { printTable } from './table.js';
import type { CommandContext } from './token-commands.js';
import { UsageError } from './usage-error.js';

/**
 * The settings of a client named on the command line, by the admin API's
 * field names (docs/admin-api.md#openid-clients); a field left out is not
 * given. The API's own schemas (features/openid-provider/admin/oidc-clients.ts) check them.
 */
type ClientSettingsGiven = Readonly<Record<string, JsonValue>>;

/** The options of `client create` and `client update` (and `--name`, which `token create` shares). */
export const clientOptionSpec = {
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'frontchannel-logout-uri': { type: 'string' },
  'frontchannel-logout-session': { type: 'boolean' },
  'no-frontchannel-logout-session': { type: 'boolean' },
  entry: { type: 'string', multiple: true },
  user: { type: 'string', multiple: true },
  group: { type: 'string', multiple: true },
  'refresh-tokens': { type: 'boolean' },
  'no-refresh-tokens': { type: 'boolean' },
  'subject-type': { type: 'string' },
  consent: { type: 'boolean' },
  'no-consent': { type: 'boolean' },
  public: { type: 'boolean' },
  clear: { type: 'string', multiple: true },
} as const;

/** The client options as parseArgs gives them. */
export interface ClientOptionValues {
  readonly name?: string | undefined;
  readonly 'redirect-uri'?: string[] | undefined;
  readonly 'post-logout-redirect-uri'?: string[] | undefined;
  readonly 'backchannel-logout-uri'?: string | undefined;
  readonly 'frontchannel-logout-uri'?: string | undefined;
  readonly 'frontchannel-logout-session'?: boolean | undefined;
  readonly 'no-frontchannel-logout-session'?: boolean | undefined;
  readonly entry?: string[] | undefined;
  readonly user?: string[] | undefined;
  readonly group?: string[] | undefined;
  readonly 'refresh-tokens'?: boolean | undefined;
  readonly 'no-refresh-tokens'?: boolean | undefined;
  readonly 'subject-type'?: string | undefined;
  readonly consent?: boolean | undefined;
  readonly 'no-consent'?: boolean | undefined;
  readonly public?: boolean | undefined;
  readonly clear?: string[] | undefined;
}

/** The options that set a list, or a logout URI: `--clear` empties them. */
const clearable: Readonly<Record<string, [field: string, empty: JsonValue]>> = {
  'post-logout-redirect-uri': ['postLogoutRedirectUris', []],
  'backchannel-logout-uri': ['backchannelLogoutUri', null],
  'frontchannel-logout-uri': ['frontchannelLogoutUri', null],
  entry: ['allowedEntries', []],
  user: ['allowedUsers', []],
  group: ['allowedGroups', []],
};

/** A setting turned on by `--OPTION` and off by `--no-OPTION`; undefined when neither is given. */
function onOrOff(
  values: ClientOptionValues,
  option: 'refresh-tokens' | 'consent' | 'frontchannel-logout-session',
): boolean | undefined {
  const on = values[option] === true;
  const off = values[`no-${option}`] === true;
  if (on && off) throw new UsageError(`--${option} and --no-${option} cannot be given together`);
  return on ? true : off ? false : undefined;
}

/** The settings the options give, by the API's field names; a wrong use of them is a UsageError. */
export function settingsFromOptions(values: ClientOptionValues): ClientSettingsGiven {
  const given: Record<string, JsonValue> = {};
  const set = (field: string, value: JsonValue | undefined) => {
    if (value !== undefined) given[field] = value;
  };
  set('name', values.name);
  set('redirectUris', values['redirect-uri']);
  set('postLogoutRedirectUris', values['post-logout-redirect-uri']);
  set('backchannelLogoutUri', values['backchannel-logout-uri']);
  set('frontchannelLogoutUri', values['frontchannel-logout-uri']);
  set('frontchannelLogoutSessionRequired', onOrOff(values, 'frontchannel-logout-session'));
  set('allowedEntries', values.entry);
  set('allowedUsers', values.user);
  set('allowedGroups', values.group);
  set('public', values.public);
  set('subjectType', values['subject-type']);
  set('refreshTokens', onOrOff(values, 'refresh-tokens'));
  set('consent', onOrOff(values, 'consent'));
  for (const option of values.clear ?? []) {
    const cleared = clearable[option];
    if (cleared === undefined) {
      throw new UsageError(
        `--clear ${option}: only ${Object.keys(clearable).join(', ')} can be cleared`,
      );
    }
    const [field, empty] = cleared;
    if (field in given)
      throw new UsageError(`--${option} and --clear ${option} cannot be given together`);
    given[field] = empty;
  }
  return given;
}

/** Each field's option, to name it in a problem as it was typed. */
const optionOfField: Readonly<Record<string, string>> = {
  clientId: 'CLIENT_ID',
  name: '--name',
  redirectUris: '--redirect-uri',
  postLogoutRedirectUris: '--post-logout-redirect-uri',
  backchannelLogoutUri: '--backchannel-logout-uri',
  frontchannelLogoutUri: '--frontchannel-logout-uri',
  frontchannelLogoutSessionRequired: '--frontchannel-logout-session',
  allowedEntries: '--entry',
  allowedUsers: '--user',
  allowedGroups: '--group',
  refreshTokens: '--refresh-tokens',
  subjectType: '--subject-type',
  consent: '--consent',
  public: '--public',
};

/**
 * Checks `value` with one of the API's schemas; a problem is told by the
 * option it came from, with the value given (`--redirect-uri ftp://x: must be ...`).
 */
function checked<S extends z.ZodType>(schema: S, value: Record<string, JsonValue>): z.output<S> {
  try {
    return parseInput(schema, value, 'body');
  } catch (error) {
    throw asCommandLineProblem(error, value);
  }
}

/** A request_invalid of the API, said in the command line's words; anything else as it is. */
function asCommandLineProblem(error: unknown, given: Record<string, JsonValue>): unknown {
  if (!(error instanceof RequestInvalidError)) return error;
  const lines = error.problems.map((problem) => {
    const match = /^body\.([A-Za-z]+)(?:\[(\d+)\])?/.exec(problem.field ?? '');
    const [, field = '', index] = match ?? [];
    const option = optionOfField[field] ?? problem.field ?? 'the client';
    const value = given[field];
    const shown: JsonValue | undefined =
      Array.isArray(value) && index !== undefined ? (value as JsonValue[])[Number(index)] : value;
    const quoted = typeof shown === 'string' ? ` "${shown}"` : '';
    return `  ${option}${quoted}: ${problem.message}`;
  });
  return new Error(`the client is not valid:\n${lines.join('\n')}`, { cause: error });
}

/** Made, rotated, updated or deleted: audited as the API's changes are, with `cli` as the actor. */
function recordChange(context: CommandContext, change: Pick<ClientChange, 'detail'>) {
  return recordCliChange(context, context.clock(), 'client_change', null, change.detail);
}

/** Prints a new secret alone on standard output, so `SECRET=$(ssogate client ...)` captures it. */
function printSecret(context: CommandContext, change: ClientChange, what: string): void {
  if (change.secret === null) {
    context.note(`${what} public OpenID client "${change.client.clientId}": it has no secret.`);
    return;
  }
  context.out(change.secret);
  context.note(
    `${what} OpenID client "${change.client.clientId}". Keep its secret now: it is not shown again.`,
  );
}

/** `ssogate client create CLIENT_ID --name NAME --redirect-uri URI ...`: the API's POST. */
export async function createClient(
  context: CommandContext,
  clientId: string,
  given: ClientSettingsGiven,
): Promise<void> {
  const body = checked(oidcClientCreateBody, { ...given, clientId });
  const change = await createOidcClient(context, body).catch((error: unknown) => {
    throw asCommandLineProblem(error, given);
  });
  await recordChange(context, change);
  printSecret(context, change, 'Created');
}

/**
 * `ssogate client update CLIENT_ID [options]`: the options given replace
 * those settings (a repeated option, its whole list), the others stay as
 * stored; then the whole is checked and saved as the API's PUT does.
 */
export async function updateClient(
  context: CommandContext,
  clientId: string,
  given: ClientSettingsGiven,
): Promise<void> {
  const stored = await existingOidcClient(context, clientId);
  const current = presentOidcClient(stored);
  const settings: Record<string, JsonValue> = {};
  for (const field of Object.keys(oidcClientSettings.shape)) {
    settings[field] = (field in given ? given[field] : current[field]) ?? null;
  }
  const change = await updateOidcClient(
    context,
    clientId,
    checked(oidcClientSettings, settings),
  ).catch((error: unknown) => {
    throw asCommandLineProblem(error, settings);
  });
  await recordChange(context, change);
  context.out(`updated ${clientId}`);
}

/** `ssogate client rotate-secret CLIENT_ID`: a new secret, printed once; the old one stops working. */
export async function rotateClientSecret(context: CommandContext, clientId: string): Promise<void> {
  const change = await rotateOidcClientSecret(context, clientId);
  await recordChange(context, change);
  printSecret(context, change, 'Rotated the secret of');
}

/** `ssogate client delete CLIENT_ID`: its grants, codes and tokens stop working at once. */
export async function deleteClient(context: CommandContext, clientId: string): Promise<void> {
  await recordChange(context, await deleteOidcClient(context, clientId));
  context.out(`deleted ${clientId}`);
}

/** `ssogate client show CLIENT_ID`: as the API shows it, in JSON; never a secret. */
export async function showClient(context: CommandContext, clientId: string): Promise<void> {
  const client = await existingOidcClient(context, clientId);
  context.out(JSON.stringify(presentOidcClient(client), null, 2));
}

/** `ssogate client list`: one line a client. */
export async function listClients(context: CommandContext): Promise<void> {
  const rows = (await context.storage.providerClients.list()).map(describe);
  printTable(context.out, ['CLIENT ID', 'NAME', 'TYPE', 'REDIRECT URIS', 'UPDATED'], rows);
}

function describe(client: OidcClientRecord): string[] {
  return [
    client.clientId,
    client.name,
    client.secretHash === null ? 'public' : 'confidential',
    client.redirectUris.join(' '),
    new Date(client.updatedAt).toISOString(),
  ];
}
