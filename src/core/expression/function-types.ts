/**
 * The shape of a standard-library function. The library is a data table
 * (functions/index.ts): the parser reads names and arity from it to reject
 * unknown functions and wrong argument counts when an entry is saved, and
 * the evaluator reads implementations from it.
 */
import type { EvaluationContext } from './context.js';
import type { JsonValue } from './json-value.js';

/**
 * Arguments are evaluated on demand, so FIRST_NON_EMPTY can stop at the first
 * usable one and skip (or survive) the rest.
 */
export interface FunctionArguments {
  readonly count: number;
  get(index: number): JsonValue;
}

/** A problem in a string-literal argument, found when the expression is saved. */
interface LiteralProblem {
  /** Offset inside the decoded string. */
  readonly index: number;
  readonly message: string;
}

export interface FunctionDefinition {
  /** Canonical upper-case name. */
  readonly name: string;
  readonly aliases: readonly string[];
  /** Parameter list shown in messages, e.g. "value, key". */
  readonly params: string;
  readonly minArgs: number;
  /** `Infinity` for variadic functions. */
  readonly maxArgs: number;
  /** Checks a string literal passed as argument `argIndex` at parse time. */
  readonly checkStringLiteral?: (argIndex: number, value: string) => LiteralProblem | undefined;
  /**
   * Throws SsogateError without a column; the evaluator adds the column of
   * the call.
   */
  readonly call: (args: FunctionArguments, context: EvaluationContext) => JsonValue;
}
