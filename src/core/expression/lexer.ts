/**
 * Hand-written lexer, pulled one token at a time by the parser so that the
 * first error reported is the leftmost one. It never backtracks: each
 * character is looked at a bounded number of times.
 */
import { quote, syntaxError } from './syntax-error.js';
import { readString } from './string-literal.js';

type TokenKind = 'string' | 'number' | 'ident' | 'response' | '(' | ')' | ',' | '==' | '!=' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** Decoded text of a string, or the identifier as written. */
  readonly text: string;
  readonly number: number;
  /** For strings: the source offset of each decoded UTF-16 unit, for columns. */
  readonly offsets: readonly number[];
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const WORD_CHAR = /[A-Za-z0-9_.$]/;
const NONE: readonly number[] = [];

function token(
  kind: TokenKind,
  start: number,
  end: number,
  text = '',
  number = 0,
  offsets = NONE,
): Token {
  return { kind, start, end, text, number, offsets };
}

export class Lexer {
  private position = 0;
  private lookahead: Token | undefined;

  constructor(private readonly source: string) {}

  peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  next(): Token {
    const current = this.peek();
    this.lookahead = undefined;
    return current;
  }

  private scan(): Token {
    const src = this.source;
    while (this.position < src.length && /\s/.test(src.charAt(this.position))) {
      this.position++;
    }
    const start = this.position;
    if (start >= src.length) {
      return token('eof', start, start);
    }
    const ch = src.charAt(start);
    const two = src.slice(start, start + 2);
    if (two === '==' || two === '!=') {
      this.position += 2;
      return token(two, start, start + 2);
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      this.position++;
      return token(ch, start, start + 1);
    }
    if (ch === '"' || ch === "'") {
      const literal = readString(src, start);
      this.position = literal.end;
      return token('string', start, literal.end, literal.value, 0, literal.offsets);
    }
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      return this.scanNumber(start);
    }
    if (ch === '$') {
      IDENT.lastIndex = start + 1;
      const name = IDENT.exec(src)?.[0] ?? '';
      if (name.toLowerCase() !== 'response') {
        throw syntaxError(
          'expression_syntax',
          start,
          `unknown variable ${quote(`$${name}`)}`,
          `; the only variable is $response`,
        );
      }
      this.position = start + 1 + name.length;
      return token('response', start, this.position, `$${name}`);
    }
    IDENT.lastIndex = start;
    const word = IDENT.exec(src)?.[0];
    if (word !== undefined) {
      this.position = start + word.length;
      return token('ident', start, this.position, word);
    }
    if (ch === '=') {
      throw syntaxError(
        'expression_syntax',
        start,
        "unexpected character '='",
        "; compare with '=='",
      );
    }
    const codePoint = String.fromCodePoint(src.codePointAt(start) ?? 0);
    throw syntaxError('expression_syntax', start, `unexpected character ${quote(codePoint)}`);
  }

  private scanNumber(start: number): Token {
    NUMBER.lastIndex = start;
    const text = NUMBER.exec(this.source)?.[0];
    if (text === undefined) {
      throw syntaxError('expression_syntax', start, "unexpected character '-'");
    }
    const end = start + text.length;
    if (WORD_CHAR.test(this.source.charAt(end))) {
      throw syntaxError('expression_syntax', start, 'invalid number');
    }
    const value = Number(text);
    if (!Number.isFinite(value)) {
      throw syntaxError('expression_syntax', start, `number ${quote(text)}`, ` is out of range`);
    }
    this.position = end;
    return token('number', start, end, text, value);
  }
}
