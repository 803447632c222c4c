import { z } from 'zod';
import type { EntryValidation } from '../../core/index.js';
import { SsogateError, validateEntry } from '../../core/index.js';
import adfsSaml from './adfs-saml.json' with { type: 'json' };
import activeDirectory from './active-directory.json' with { type: 'json' };
import auth0 from './auth0.json' with { type: 'json' };
import authentik from './authentik.json' with { type: 'json' };
import dingtalk from './dingtalk.json' with { type: 'json' };
import feishu from './feishu.json' with { type: 'json' };
import github from './github.json' with { type: 'json' };
import gitlab from './gitlab.json' with { type: 'json' };
import google from './google.json' with { type: 'json' };
import keycloak from './keycloak.json' with { type: 'json' };
import microsoftEntraId from './microsoft-entra-id.json' with { type: 'json' };
import microsoftEntraIdSaml from './microsoft-entra-id-saml.json' with { type: 'json' };
import okta from './okta.json' with { type: 'json' };
import oktaSaml from './okta-saml.json' with { type: 'json' };
import openldap from './openldap.json' with { type: 'json' };
import slack from './slack.json' with { type: 'json' };
import wechat from './wechat.json' with { type: 'json' };
import wecom from './wecom.json' with { type: 'json' };

/**
 * Presets (docs/providers.md): one JSON file per provider beside this module,
 * each an entry without its id and credentials. `{{name}}` in its strings
 * stands for a parameter the administrator fills (an agent id, a
 * self-managed host, an OpenID Connect issuer's tenant or realm, a
 * directory's URL and DNs), with a default where the provider has one. The
 * imports make the build copy the files to dist/.
 */
const presetFile = z.strictObject({
  preset: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
  name: z.string().min(1),
  /** The provider's name in Chinese: the console's list and a new entry's default name in that language. */
  'zh-CN': z.strictObject({ name: z.string().min(1) }),
  /** The provider's page on registering an application. */
  setup: z.url(),
  parameters: z.record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/),
    z.strictObject({
      default: z.string().optional(),
      /** What the form calls the parameter, instead of its name (`webBase`). */
      label: z.string().min(1),
      description: z.string(),
      /** The label and description in Chinese, for the console in that language. */
      'zh-CN': z.strictObject({ label: z.string().min(1), description: z.string().min(1) }),
    }),
  ),
  entry: z.record(z.string(), z.unknown()),
});

type Preset = z.infer<typeof presetFile>;

export const presets: readonly Preset[] = [
  github,
  gitlab,
  slack,
  wechat,
  wecom,
  dingtalk,
  feishu,
  google,
  microsoftEntraId,
  okta,
  keycloak,
  authentik,
  auth0,
  microsoftEntraIdSaml,
  adfsSaml,
  oktaSaml,
  activeDirectory,
  openldap,
].map((file) => presetFile.parse(file));

export function findPreset(name: string): Preset | undefined {
  return presets.find((preset) => preset.preset === name);
}

interface PresetValues {
  readonly id: string;
  readonly name?: string | undefined;
  /** Undefined for a SAML preset, whose entry has no client of its own. */
  readonly appid?: string | undefined;
  readonly appsecret?: string | undefined;
  /** Values of the preset's parameters; a parameter with a default may be left out. */
  readonly parameters?: Readonly<Record<string, string>>;
}

/**
 * The entry a preset makes with the administrator's values, validated as any
 * entry is. A parameter without a value or default is reported, coded, on
 * `parameters.<name>`.
 */
export function entryFromPreset(preset: Preset, values: PresetValues): EntryValidation {
  const missing: SsogateError[] = [];
  const parameterValues: Record<string, string> = {};
  for (const [name, parameter] of Object.entries(preset.parameters)) {
    const value = values.parameters?.[name] ?? parameter.default;
    if (value === undefined || value === '') {
      missing.push(
        new SsogateError('field_invalid', `is required: ${parameter.description}`, {
          field: `parameters.${name}`,
        }),
      );
    } else parameterValues[name] = value.replace(/\/+$/, '');
  }
  if (missing.length > 0) return { ok: false, problems: missing };
  const filled = fillParameters(preset.entry, parameterValues);
  return validateEntry({
    ...(filled as Record<string, unknown>),
    id: values.id,
    name: values.name ?? preset.name,
    enabled: true,
    ...(values.appid === undefined ? {} : { appid: values.appid }),
    ...(values.appsecret === undefined ? {} : { appsecret: values.appsecret }),
  });
}

function fillParameters(value: unknown, parameters: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{([A-Za-z][A-Za-z0-9]*)\}\}/g, (whole, name: string) =>
      Object.hasOwn(parameters, name) ? (parameters[name] ?? whole) : whole,
    );
  }
  if (Array.isArray(value)) return value.map((item) => fillParameters(item, parameters));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillParameters(item, parameters)]),
    );
  }
  return value;
}
