import { SsogateError } from '../errors/ssogate-error.js';
import { valueFor } from './missing-value.js';
import type { PlaceholderValues } from './missing-value.js';
import { percentEncode } from './percent-encode.js';
import type { CompiledTemplate, TemplatePart } from './types.js';

export type { PlaceholderValues } from './missing-value.js';

function renderParts(parts: readonly TemplatePart[], values: PlaceholderValues): string {
  // One pass over the parsed parts: a value is never scanned for `${…}`, so a
  // value that looks like a placeholder is sent as that text (encoded).
  let out = '';
  for (const part of parts) {
    out += part.type === 'literal' ? part.text : percentEncode(valueFor(values, part));
  }
  return out;
}

/**
 * The whole URL, query included (the GET shape, also used for browser
 * redirects). Each value is percent-encoded wherever it stands
 * (RFC 3986 §2.1), so it cannot add a `/`, `&`, `=` or `#`; the literal text is
 * kept exactly as written. Throws `template_value_missing`.
 */
export function renderUrl(template: CompiledTemplate, values: PlaceholderValues): string {
  return renderParts(template.parts, values);
}

interface PostRequestParts {
  /** The URL without its query string and fragment. */
  readonly url: string;
  /** Query parameters in template order, with decoded values. */
  readonly parameters: ReadonlyArray<readonly [string, string]>;
}

/**
 * A `POST ` template: values are DECODED strings (literal text percent-decoded at
 * compile time, placeholder values raw), since the caller JSON- or
 * form-encodes the body itself; encoding here too would double-encode. A value
 * such as `a&client_secret=x` therefore stays one value. Only for `POST `
 * templates (check `template.method`); a GET template throws `template_method`.
 */
export function renderPostParameters(
  template: CompiledTemplate,
  values: PlaceholderValues,
): PostRequestParts {
  if (template.method !== 'POST') {
    throw new SsogateError(
      'template_method',
      'This template has no `POST ` prefix; render it with renderUrl.',
    );
  }
  const url = renderParts(template.endpoint, values);
  const parameters = template.parameters.map(({ name, value }): readonly [string, string] => {
    const text = value
      .map((part) => (part.type === 'decoded' ? part.text : valueFor(values, part)))
      .join('');
    return Object.freeze([name, text] as const);
  });
  return Object.freeze({ url, parameters: Object.freeze(parameters) });
}
