/**
 * CONCAT, LOWER, UPPER, TRIM. Scalars become text the way JSON writes them
 * (42, true), null becomes "" in CONCAT and stays null in the others, so an
 * optional attribute that is absent stays absent instead of turning into "".
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import type { FunctionDefinition } from '../function-types.js';
import type { JsonValue } from '../json-value.js';
import { describeType } from '../json-value.js';

/** Results longer than this are refused: CONCAT($response, $response, ...) must not eat memory. */
const MAX_TEXT_LENGTH = 1024 * 1024;

function toText(value: JsonValue, what: string): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new SsogateError(
    'value_type',
    `${what} needs text, a number or a boolean, got ${describeType(value)}; pick a value with JSON_GET first`,
  );
}

function checkLength(text: string, what: string): string {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new SsogateError(
      'response_too_large',
      `${what} would produce more than ${MAX_TEXT_LENGTH} characters`,
    );
  }
  return text;
}

export const concat: FunctionDefinition = {
  name: 'CONCAT',
  aliases: [],
  params: 'value, ...',
  minArgs: 1,
  maxArgs: Infinity,
  call(args) {
    let out = '';
    for (let i = 0; i < args.count; i++) {
      out = checkLength(out + toText(args.get(i), 'CONCAT'), 'CONCAT');
    }
    return out;
  },
};

function mapText(name: string, transform: (text: string) => string): FunctionDefinition {
  return {
    name,
    aliases: [],
    params: 'text',
    minArgs: 1,
    maxArgs: 1,
    call(args) {
      const value = args.get(0);
      return value === null ? null : transform(toText(value, name));
    },
  };
}

// toLowerCase/toUpperCase are locale-independent: the same result on every server.
export const lower = mapText('LOWER', (text) => text.toLowerCase());
export const upper = mapText('UPPER', (text) => checkLength(text.toUpperCase(), 'UPPER'));
export const trim = mapText('TRIM', (text) => text.trim());
