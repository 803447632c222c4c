/**
 * Evaluation of a parsed expression over one response. Pure tree walking:
 * no eval, no Function, no property access by computed name on anything but
 * own data (json-value.ts). Depth is bounded by the parser (32 levels).
 */
import { SsogateError, isSsogateError } from '../errors/ssogate-error.js';
import type { CallNode, Expression, ExpressionNode } from './ast.js';
import type { EvaluationContext } from './context.js';
import { jsonEquals } from './equality.js';
import type { FunctionArguments } from './function-types.js';
import { findFunction } from './functions/index.js';
import type { JsonValue } from './json-value.js';

export { createEvaluationContext } from './context.js';
export type { EvaluationContext } from './context.js';

/** The same error, pointing at `offset` unless an inner node already claimed it. */
function placed(error: unknown, offset: number): unknown {
  if (!isSsogateError(error) || error.column !== undefined) {
    return error;
  }
  return new SsogateError(error.code, error.message, { column: offset + 1, cause: error });
}

function evaluateCall(node: CallNode, context: EvaluationContext): JsonValue {
  const fn = findFunction(node.name);
  if (fn === undefined) {
    // Only reachable with a tree that did not come from parseExpression.
    throw new SsogateError('expression_unknown_function', `unknown function '${node.name}'`, {
      column: node.start + 1,
    });
  }
  const args: FunctionArguments = {
    count: node.args.length,
    get(index) {
      const arg = node.args[index];
      return arg === undefined ? null : evaluateNode(arg, context);
    },
  };
  try {
    return fn.call(args, context);
  } catch (error: unknown) {
    throw placed(error, node.start);
  }
}

function evaluateNode(node: ExpressionNode, context: EvaluationContext): JsonValue {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return node.value;
    case 'response':
      return context.response;
    case 'binary': {
      const same = jsonEquals(evaluateNode(node.left, context), evaluateNode(node.right, context));
      return node.operator === '==' ? same : !same;
    }
    case 'call':
      return evaluateCall(node, context);
  }
}

/**
 * The value of `expression` over the context's response. Throws only
 * SsogateError, with the column of the node that failed.
 */
export function evaluate(expression: Expression, context: EvaluationContext): JsonValue {
  return evaluateNode(expression.root, context);
}

/** A success condition holds only when the value is exactly `true`. */
export function evaluateCondition(expression: Expression, context: EvaluationContext): boolean {
  return evaluate(expression, context) === true;
}
