import { SsogateError } from '../errors/ssogate-error.js';
import type { PlaceholderPart } from './types.js';

export type PlaceholderValues = Readonly<Partial<Record<string, string>>>;

/**
 * The value for a placeholder, or a coded error naming it. Own properties
 * only, so `${constructor}` can never pick up Object.prototype; a non-string
 * (from untyped callers) counts as missing rather than being stringified.
 */
export function valueFor(values: PlaceholderValues, part: PlaceholderPart): string {
  const value = Object.hasOwn(values, part.name) ? values[part.name] : undefined;
  if (typeof value === 'string') return value;
  const hint = part.name === 'app_secret' ? ' (no appsecret is set for this entry)' : '';
  throw new SsogateError(
    'template_value_missing',
    `There is no value for \${${part.name}}${hint}.`,
    { column: part.column },
  );
}
