/**
 * The expression language (docs/entries.md#expressions): parse once when an entry is saved,
 * evaluate many times over third-party responses.
 */
export type { CallNode, Expression, ExpressionNode } from './ast.js';
export type { EvaluationContext } from './context.js';
export { createEvaluationContext } from './context.js';
export { evaluate, evaluateCondition } from './evaluate.js';
export type { FunctionDefinition } from './function-types.js';
export { findFunction, functionNames } from './functions/index.js';
export type { JsonObject, JsonValue } from './json-value.js';
export { getOwn, isJsonArray, isJsonObject } from './json-value.js';
export { parseExpression } from './parser.js';
export { MAX_JSON_BYTES, parseUntrustedJson } from './safe-json.js';
