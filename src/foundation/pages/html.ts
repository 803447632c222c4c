/**
 * HTML building with escaping by default. The `html` tag escapes every
 * interpolated value unless it is itself a fragment built by `html`, so a
 * page can only insert raw markup it wrote itself; text from users or
 * third-party servers is always escaped.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes `& < > " '`: safe in text and in quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Markup that has been built by `html` (and so is already escaped). */
export class SafeHtml {
  readonly #markup: string;

  constructor(markup: string) {
    this.#markup = markup;
  }

  toString(): string {
    return this.#markup;
  }
}

/** What a page may interpolate: text, numbers, fragments, lists of them, or nothing. */
type HtmlValue = string | number | SafeHtml | undefined | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value === undefined) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (isList(value)) return value.map(render).join('');
  // Anything else, even an object posing as markup, is text to escape.
  return escapeHtml(String(value));
}

function isList(value: HtmlValue): value is readonly HtmlValue[] {
  return Array.isArray(value);
}
