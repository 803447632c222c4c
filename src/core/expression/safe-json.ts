/**
 * JSON parsing for bodies a third-party server chose. JSON.parse itself is
 * safe against prototype pollution (it defines `__proto__` as an own data
 * property, see safe-json.test.ts) and V8's parser is iterative, but the
 * result may be nested deeply enough to overflow any recursive consumer, so
 * the depth is checked, by a scan of the text, before anyone sees it.
 *
 * JSON.parse also rounds every number to a double, so two 64-bit ids such as
 * 12345678901234567890 and 12345678901234567891 would read as one value (and
 * one user). An integer literal beyond the safe range is therefore kept as its
 * exact decimal text (RFC 8259 §6 leaves the precision of numbers to the
 * reader). The same scan that measures the depth notices a run of 16 digits or
 * more, the shortest that can exceed 2^53 - 1; only then is the text read
 * again with those literals quoted, so the common body costs one JSON.parse.
 */
import { SsogateError } from '../errors/ssogate-error.js';
import { excerpt } from '../mask/excerpt.js';
import { maskSecrets } from '../mask/mask.js';
import type { JsonValue } from './json-value.js';

export const MAX_JSON_BYTES = 1024 * 1024;
const MAX_JSON_DEPTH = 64;

/** Masking looks at this much of a non-JSON body; the message shows 80. */
const MASK_WINDOW = 4096;

interface SafeJsonOptions {
  /** Exact secrets to mask in the "not JSON" excerpt. */
  readonly secrets?: readonly string[];
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

interface TextScan {
  /** Objects/arrays nest deeper than the limit. */
  readonly tooDeep: boolean;
  /** Outside strings, 16 or more digits follow one another. */
  readonly longDigitRun: boolean;
}

/**
 * Scans a text that JSON.parse accepted: whether objects/arrays nest deeper
 * than `limit`, and whether a number may be beyond the safe integers.
 * Scanning the text (skipping strings) is exact for valid JSON and several
 * times cheaper than walking the parsed tree.
 */
function scanText(text: string, limit: number): TextScan {
  let depth = 0;
  let digits = 0;
  let longDigitRun = false;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      if (digits >= SAFE_INTEGER_DIGITS) longDigitRun = true;
    } else {
      digits = 0;
      if (code === QUOTE) {
        inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        depth += 1;
        if (depth > limit) return { tooDeep: true, longDigitRun };
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        depth -= 1;
      }
    }
  }
  return { tooDeep: false, longDigitRun };
}

/** Number.MAX_SAFE_INTEGER has 16 digits; fewer can never exceed it. */
const SAFE_INTEGER_DIGITS = String(Number.MAX_SAFE_INTEGER).length;

const INTEGER_LITERAL = /^-?[0-9]+$/;

/**
 * The valid JSON `text` with each integer literal that is not a safe integer
 * put in quotes, so that JSON.parse yields its exact decimal text. Fractions
 * and exponent forms stay numbers: their source is not an integer, and the
 * user mapping refuses them where a value must be exact (see core/user/coerce.ts).
 */
function quoteUnsafeIntegers(text: string): string {
  let result = '';
  let copiedUpTo = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = afterString(text, index);
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      const start = index;
      while (index < text.length && isNumberCharacter(text.charCodeAt(index))) index += 1;
      const literal = text.slice(start, index);
      if (INTEGER_LITERAL.test(literal) && !Number.isSafeInteger(Number(literal))) {
        result += `${text.slice(copiedUpTo, start)}"${literal}"`;
        copiedUpTo = index;
      }
    } else {
      index += 1;
    }
  }
  return result + text.slice(copiedUpTo);
}

/** The index just past the string that opens at `start` (a quote). */
function afterString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index += 1;
    else if (code === QUOTE) return index + 1;
  }
  return text.length;
}

function isNumberCharacter(code: number): boolean {
  return (
    (code >= DIGIT_0 && code <= DIGIT_9) ||
    code === MINUS ||
    code === PLUS ||
    code === DOT ||
    code === LOWER_E ||
    code === UPPER_E
  );
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

function notJson(text: string, secrets: readonly string[], cause: unknown): SsogateError {
  if (text.trim() === '') {
    return new SsogateError('response_not_json', 'response is not JSON (it is empty)', { cause });
  }
  const shown = excerpt(maskSecrets(text.slice(0, MASK_WINDOW), secrets), 80);
  return new SsogateError(
    'response_not_json',
    `response is not JSON (first 80 characters: ${shown})`,
    {
      cause,
    },
  );
}

/**
 * Parses untrusted JSON text, an integer beyond the safe range as its exact
 * decimal text. Throws SsogateError `response_too_large` (over 1 MiB or
 * nested deeper than 64) or `response_not_json`; nothing else.
 */
export function parseUntrustedJson(text: string, options: SafeJsonOptions = {}): JsonValue {
  // A UTF-16 unit is at least one UTF-8 byte: only count bytes when it matters.
  if (
    text.length > MAX_JSON_BYTES ||
    (text.length * 3 > MAX_JSON_BYTES && utf8Length(text) > MAX_JSON_BYTES)
  ) {
    throw new SsogateError(
      'response_too_large',
      `JSON text is larger than ${MAX_JSON_BYTES} bytes`,
    );
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error: unknown) {
    if (error instanceof RangeError) {
      throw new SsogateError('response_too_large', 'JSON text is nested too deeply', {
        cause: error,
      });
    }
    throw notJson(text, options.secrets ?? [], error);
  }
  const scan = scanText(text, MAX_JSON_DEPTH);
  if (scan.tooDeep) {
    throw new SsogateError(
      'response_too_large',
      `JSON value is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  // The text is valid JSON, and quoting whole number literals keeps it so.
  return scan.longDigitRun ? (JSON.parse(quoteUnsafeIntegers(text)) as JsonValue) : value;
}
