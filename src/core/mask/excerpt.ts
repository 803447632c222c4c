/**
 * Cutting and escaping untrusted text before it reaches a log line, an error
 * message or a page. A third-party server controls the bytes it sends; left
 * raw, a CR/LF forges log lines and a bidi override reorders what a reader
 * sees. Everything unsafe becomes a visible `\n`, `\r`, `\t` or `\uXXXX`.
 */

/** Characters that must never pass through raw (tested one at a time below). */
function isUnsafe(code: number): boolean {
  return (
    code < 0x20 || // C0 controls, incl. CR, LF, TAB, ESC
    (code >= 0x7f && code <= 0x9f) || // DEL and C1 controls (incl. NEL U+0085)
    code === 0x2028 || // line separator
    code === 0x2029 || // paragraph separator
    (code >= 0x202a && code <= 0x202e) || // bidi embeddings/overrides
    (code >= 0x2066 && code <= 0x2069) || // bidi isolates
    code === 0x200e || // left-to-right mark
    code === 0x200f || // right-to-left mark
    code === 0xfeff // byte order mark / zero-width no-break space
  );
}

const NAMED: ReadonlyMap<number, string> = new Map([
  [0x0a, '\\n'],
  [0x0d, '\\r'],
  [0x09, '\\t'],
]);

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Escapes control, bidi and line-separator characters, and lone surrogates
 * (which are not valid Unicode and break some log pipelines). Printable text,
 * including non-Latin scripts and emoji, is kept as is.
 */
export function escapeControl(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      } else {
        out += hex4(code);
      }
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      out += hex4(code);
    } else if (isUnsafe(code)) {
      out += NAMED.get(code) ?? hex4(code);
    } else {
      out += text.charAt(i);
    }
  }
  return out;
}

/**
 * The first `max` characters (UTF-16 code units, never splitting a surrogate
 * pair) of `text`, escaped by `escapeControl`, with `…` appended when cut.
 * Cutting happens before escaping, so `max` counts characters of the
 * original text, as "first 80 characters" promises.
 */
export function excerpt(text: string, max = 80): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) {
    return escapeControl(text);
  }
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) {
    end--;
  }
  return `${escapeControl(text.slice(0, end))}…`;
}
