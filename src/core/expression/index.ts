/**
 * The expression language (docs/entries.md#expressions): parse once when an entry is saved,
 * evaluate many times over third-party responses.
 */
export type {
  BinaryNode,
  BooleanLiteralNode,
  CallNode,
  Expression,
  ExpressionNode,
  LiteralNode,
  NullLiteralNode,
  NumberLiteralNode,
  ResponseNode,
  StringLiteralNode,
} from './ast.js';
export type { EvaluationContext, EvaluationContextOptions } from './context.js';
export { createEvaluationContext } from './context.js';
export { evaluate, evaluateCondition } from './evaluate.js';
export type { FunctionDefinition } from './function-types.js';
export { findFunction, functionNames, standardFunctions } from './functions/index.js';
export type { JsonObject, JsonValue } from './json-value.js';
export { getOwn, hasOwnKey, isJsonArray, isJsonObject } from './json-value.js';
export { MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH, parseExpression } from './parser.js';
export { MAX_JSON_BYTES, MAX_JSON_DEPTH, parseUntrustedJson } from './safe-json.js';
export { MAX_TEXT_LENGTH } from './functions/text.js';
