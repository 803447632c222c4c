/**
 * JSON parsing for bodies a third-party server chose. JSON.parse itself is
 * safe against prototype pollution (it defines `__proto__` as an own data
 * property, see safe-json.test.ts) and V8's parser is iterative, but the
 * result may be nested deeply enough to overflow any recursive consumer, so
 * the depth is checked, by a scan of the text, before anyone sees it.
 */
import { SsogateError } from '../errors/ssogate-error.js';
import { excerpt } from '../mask/excerpt.js';
import { maskSecrets } from '../mask/mask.js';
import type { JsonValue } from './json-value.js';

export const MAX_JSON_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/** Masking looks at this much of a non-JSON body; the message shows 80. */
const MASK_WINDOW = 4096;

export interface SafeJsonOptions {
  /** Exact secrets to mask in the "not JSON" excerpt. */
  readonly secrets?: readonly string[];
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Whether objects/arrays in a text that JSON.parse accepted nest deeper than
 * `limit`. Scanning the text's brackets (skipping strings) is exact for valid
 * JSON and several times cheaper than walking the parsed tree.
 */
function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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
 * Parses untrusted JSON text. Throws SsogateError `response_too_large` (over
 * 1 MiB or nested deeper than 64) or `response_not_json`; nothing else.
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
  if (depthExceeds(text, MAX_JSON_DEPTH)) {
    throw new SsogateError(
      'response_too_large',
      `JSON value is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  return value;
}
