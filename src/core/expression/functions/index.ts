/**
 * The standard library as a table. Adding a function is adding a row here;
 * the parser and the evaluator need no change.
 */
import type { FunctionDefinition } from '../function-types.js';
import { formGet } from './form-get.js';
import { hasKey } from './has-key.js';
import { jsonGet } from './json-get.js';
import { jsonPath } from './json-path.js';
import { jwtClaims, jwtClaimsUnverified } from './jwt-claims.js';
import { equals, firstNonEmpty } from './logic.js';
import { concat, lower, trim, upper } from './text.js';
import { tokenValue } from './token-value.js';

const standardFunctions: readonly FunctionDefinition[] = [
  jsonGet,
  jsonPath,
  hasKey,
  concat,
  lower,
  upper,
  trim,
  firstNonEmpty,
  equals,
  formGet,
  jwtClaimsUnverified,
  jwtClaims,
  tokenValue,
];

// A Map, not an object literal, so a name like "CONSTRUCTOR" finds nothing.
const byName: ReadonlyMap<string, FunctionDefinition> = new Map(
  standardFunctions.flatMap((fn) => [fn.name, ...fn.aliases].map((name) => [name, fn] as const)),
);

/** Every callable name, aliases included, sorted; for "known functions: ..." messages. */
export const functionNames: readonly string[] = [...byName.keys()].sort();

/** The function called `name` (any case), or undefined. */
export function findFunction(name: string): FunctionDefinition | undefined {
  return byName.get(name.toUpperCase());
}
