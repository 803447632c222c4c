/**
 * Percent-decoding of literal `POST ` parameter text (RFC 3986 §2.1, §2.4).
 * Unlike application/x-www-form-urlencoded, RFC 3986 gives `+` no special
 * meaning, so `+` stays `+`. A `%` not followed by two hex digits is kept as
 * written (compileTemplate refuses those anyway). Returns undefined when the
 * decoded bytes are not UTF-8, so the caller can report it at save time.
 */

const encoder = new TextEncoder();
// ignoreBOM: a leading %EF%BB%BF is data here and must not be swallowed.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const hexPair = /^[0-9A-Fa-f]{2}$/;

export function percentDecode(text: string): string | undefined {
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  let index = 0;
  while (index < text.length) {
    const pair = text.slice(index + 1, index + 3);
    if (text[index] === '%' && hexPair.test(pair)) {
      bytes.push(Number.parseInt(pair, 16));
      index += 3;
      continue;
    }
    const codePoint = text.codePointAt(index) ?? 0;
    const character = String.fromCodePoint(codePoint);
    bytes.push(...encoder.encode(character));
    index += character.length;
  }
  try {
    return decoder.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}
