/**
 * Quoted strings in 'single' or "double" quotes with JSON-like backslash
 * escapes. Besides the decoded value it returns where each decoded character
 * came from, so that a JSON_PATH literal's syntax error can name the exact
 * column even after escapes.
 */
import { quote, syntaxError } from './syntax-error.js';

interface StringLiteral {
  readonly value: string;
  /** Offset just past the closing quote. */
  readonly end: number;
  /** Source offset of each decoded UTF-16 unit, plus one for the end. */
  readonly offsets: readonly number[];
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\\', '\\'],
  ["'", "'"],
  ['"', '"'],
  ['/', '/'],
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['b', '\b'],
  ['f', '\f'],
]);

const HEX4 = /^[0-9A-Fa-f]{4}$/;

export function readString(source: string, start: number): StringLiteral {
  const quoteChar = source.charAt(start);
  let value = '';
  const offsets: number[] = [];
  let i = start + 1;
  while (i < source.length) {
    const ch = source.charAt(i);
    if (ch === quoteChar) {
      offsets.push(i);
      return { value, end: i + 1, offsets };
    }
    if (ch !== '\\') {
      value += ch;
      offsets.push(i);
      i++;
      continue;
    }
    const escape = source.charAt(i + 1);
    const simple = SIMPLE_ESCAPES.get(escape);
    if (simple !== undefined) {
      value += simple;
      offsets.push(i);
      i += 2;
    } else if (escape === 'u' && HEX4.test(source.slice(i + 2, i + 6))) {
      value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
      offsets.push(i);
      i += 6;
    } else if (escape === '') {
      break; // a backslash at the very end: the string is unterminated
    } else {
      const shown = escape === 'u' ? source.slice(i, i + 6) : `\\${escape}`;
      throw syntaxError('expression_syntax', i, `invalid escape ${quote(shown)}`);
    }
  }
  throw syntaxError('expression_syntax', start, 'unterminated string starting');
}
