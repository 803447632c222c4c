import { readFile } from 'node:fs/promises';
import type { EntryInput } from '../core/index.js';
import { callbackUrl, describeProblem, entryTypeOf } from '../core/index.js';
import { changedFields } from '../features/admin-api/entry-changes.js';
import { entryAddressProblems } from '../foundation/outbound/entry-addresses.js';
import { entryFromPreset, findPreset, presets } from '../foundation/presets/presets.js';
import { recordCliChange } from './cli-audit.js';
import type { CommandContext } from './token-commands.js';

interface PresetAddOptions {
  readonly preset: string;
  readonly id: string;
  readonly name: string | undefined;
  /** Required, except for a SAML preset, which refuses it. */
  readonly appid: string | undefined;
  /** A file holding the secret, so that it never stands on a command line. */
  readonly appsecretFile: string | undefined;
  /** `key=value` for the preset's parameters. */
  readonly parameters: readonly string[];
  /** Created enabled; otherwise disabled until a trial sign-in shows it works. */
  readonly enable: boolean;
}

/**
 * `ssogate entries add --preset NAME`: a new entry from a preset
 * (docs/providers.md), validated and checked against the outbound address
 * policy as the API would; an existing id is refused, never replaced. It is
 * disabled unless `--enable`: users would otherwise meet its sign-in button
 * before its credentials and callback were ever tried (the console's Test
 * sign-in tries a disabled entry as well). The callback URL to register at the
 * provider is printed, as the provider refuses any other.
 */
export async function addFromPreset(
  context: CommandContext,
  options: PresetAddOptions,
): Promise<void> {
  const preset = findPreset(options.preset);
  if (preset === undefined) {
    throw new Error(
      `no preset "${options.preset}"; presets: ${presets.map((p) => p.preset).join(', ')}`,
    );
  }
  // A SAML identity provider knows the gateway by its metadata, and a
  // directory by its service account: neither gives it an app id.
  const kind = entryTypeOf(preset.entry as EntryInput);
  if (kind === 'saml' && (options.appid !== undefined || options.appsecretFile !== undefined)) {
    throw new Error(
      `preset ${preset.preset} is a SAML identity provider: it takes no --appid or --appsecret-file`,
    );
  }
  if (kind === 'ldap' && options.appid !== undefined) {
    throw new Error(`preset ${preset.preset} is a directory: it takes no --appid`);
  }
  if (kind !== 'saml' && kind !== 'ldap' && options.appid === undefined) {
    throw new Error(`preset ${preset.preset} needs --appid APPID`);
  }
  const parameters: Record<string, string> = {};
  for (const pair of options.parameters) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--param ${pair}: write it as name=value`);
    parameters[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const unknown = Object.keys(parameters).filter((name) => !(name in preset.parameters));
  if (unknown.length > 0) {
    throw new Error(
      `preset ${preset.preset} has no parameter ${unknown.join(', ')}; it has: ${Object.keys(preset.parameters).join(', ') || 'none'}`,
    );
  }
  const appsecret =
    options.appsecretFile === undefined
      ? undefined
      : (await readFile(options.appsecretFile, 'utf8')).trim();
  const result = entryFromPreset(preset, {
    id: options.id,
    name: options.name,
    appid: options.appid,
    appsecret,
    parameters,
  });
  const problems = result.ok
    ? entryAddressProblems(result.entry, context.outboundPolicy)
    : result.problems;
  if (!result.ok || problems.length > 0) {
    throw new Error(`the entry is invalid: ${problems.map(describeProblem).join('; ')}`);
  }
  const input = { ...result.entry.input, enabled: options.enable };
  const now = context.clock();
  if (!(await context.storage.entries.create(input, now))) {
    throw new Error(`an entry "${input.id}" exists already`);
  }
  await recordCliChange(context, now, 'entry_change', input.id, {
    action: 'create',
    fields: changedFields(undefined, input, appsecret === undefined ? 'keep' : 'set'),
    via: 'preset',
  });
  await context.storage.changes.publish('entries');
  context.out(
    `created entry ${input.id} from preset ${preset.preset}, ${input.enabled ? 'enabled' : 'disabled'}`,
  );
  context.out(
    `callback URL to register at the provider: ${callbackUrl(context.publicUrl, input.id)}`,
  );
  if (!input.enabled) {
    context.note(
      `Try it with Test sign-in on its page in the console (${context.publicUrl}/_sso/admin), then enable it there; --enable creates it enabled.`,
    );
  }
}
