import type { EntryDraft } from '../entry-form/entry-draft.js';
import { draftFromEntry } from '../entry-form/entry-draft.js';
import { idFromName, uniqueId } from '../entry-form/form-assist.js';
import { defaultEntryKind } from '../entry-kinds/registry.js';
import type { EntryView } from '../types.js';

/** A provider preset as GET /_sso/api/presets lists it (src/foundation/presets/). */
export interface PresetView {
  readonly preset: string;
  readonly name: string;
  readonly 'zh-CN': { readonly name: string };
  readonly setup: string;
  readonly parameters: Readonly<
    Record<
      string,
      {
        readonly default?: string;
        readonly label: string;
        readonly description: string;
        readonly 'zh-CN': { readonly label: string; readonly description: string };
      }
    >
  >;
  readonly entry: Readonly<Record<string, unknown>>;
}

/** The provider's name in the language on screen (the preset's own data). */
export function presetName(preset: PresetView, language: string): string {
  return language === 'zh-CN' ? preset['zh-CN'].name : preset.name;
}

/** The preset's parameters at their defaults (empty when it has none). */
export function defaultParameters(preset: PresetView): Record<string, string> {
  return Object.fromEntries(
    Object.entries(preset.parameters).map(([name, parameter]) => [name, parameter.default ?? '']),
  );
}

/** `value` with each {{name}} of a parameter replaced, as the server's entryFromPreset does. */
export function fillParameters(
  value: unknown,
  parameters: Readonly<Record<string, string>>,
): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{([A-Za-z][A-Za-z0-9]*)\}\}/g, (whole, name: string) => {
      const filled = parameters[name];
      return filled === undefined || filled === '' ? whole : filled.replace(/\/+$/, '');
    });
  }
  if (Array.isArray(value)) return value.map((item: unknown) => fillParameters(item, parameters));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillParameters(item, parameters)]),
    );
  }
  return value;
}

/**
 * The form filled from a preset: every field the preset has, with the
 * parameters; the name, state and credentials stay as the form has them.
 * An id left blank, or still following the name, becomes the preset's own
 * (`github`, `github-2` when another entry has it), so the callback URL to
 * register shows at once and no problem greets an untouched form.
 */
export function draftFromPreset(
  preset: PresetView,
  parameters: Readonly<Record<string, string>>,
  current: EntryDraft,
  takenIds: readonly string[] = [],
  language = 'en',
): EntryDraft {
  const filled = fillParameters(preset.entry, parameters) as Record<string, unknown>;
  const idIsSuggested = current.id === '' || current.id === idFromName(current.name);
  const view = {
    ...filled,
    // A SAML preset names its type; the OAuth2 and OpenID Connect ones do not.
    type: typeof filled.type === 'string' ? filled.type : defaultEntryKind.id,
    id: idIsSuggested ? uniqueId(preset.preset, takenIds) : current.id,
    name: current.name === '' ? presetName(preset, language) : current.name,
    enabled: current.enabled,
    isDefault: current.isDefault,
    appsecretSet: false,
  } as unknown as EntryView;
  return {
    ...draftFromEntry(view),
    appid: current.appid,
    appsecret: current.appsecret,
  };
}

/** The scopes the authorization URL asks for, as the provider's registration lists them. */
export function scopesOf(authorizeUrl: string): string[] {
  const query = authorizeUrl.split('?')[1] ?? '';
  const scope = new URLSearchParams(query.replace(/\$\{[a-z_]+\}/g, '')).get('scope') ?? '';
  return scope.split(/[\s,]+/).filter((item) => item !== '');
}
