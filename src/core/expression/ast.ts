/**
 * The parsed form of an expression. Every node records `start`, the 0-based
 * offset of its first character in the source, so that evaluation errors can
 * point at the column that failed long after the text was parsed.
 */
import type { JsonValue } from './json-value.js';

export interface StringLiteralNode {
  readonly kind: 'string';
  readonly start: number;
  readonly value: string;
}

export interface NumberLiteralNode {
  readonly kind: 'number';
  readonly start: number;
  readonly value: number;
}

export interface BooleanLiteralNode {
  readonly kind: 'boolean';
  readonly start: number;
  readonly value: boolean;
}

export interface NullLiteralNode {
  readonly kind: 'null';
  readonly start: number;
  readonly value: null;
}

/** `$response`: the body of the call's response, as a string. */
export interface ResponseNode {
  readonly kind: 'response';
  readonly start: number;
}

export interface CallNode {
  readonly kind: 'call';
  readonly start: number;
  /** Upper case, as written (an alias stays an alias: `PARSE_JSON`). */
  readonly name: string;
  readonly args: readonly ExpressionNode[];
}

export interface BinaryNode {
  readonly kind: 'binary';
  /** Offset of the left operand; `operatorStart` is that of `==` / `!=`. */
  readonly start: number;
  readonly operatorStart: number;
  readonly operator: '==' | '!=';
  readonly left: ExpressionNode;
  readonly right: ExpressionNode;
}

export type LiteralNode =
  StringLiteralNode | NumberLiteralNode | BooleanLiteralNode | NullLiteralNode;

export type ExpressionNode = LiteralNode | ResponseNode | CallNode | BinaryNode;

/** A parsed expression, kept with its source for display and re-saving. */
export interface Expression {
  readonly source: string;
  readonly root: ExpressionNode;
}

export function isLiteral(node: ExpressionNode): node is LiteralNode {
  return (
    node.kind === 'string' ||
    node.kind === 'number' ||
    node.kind === 'boolean' ||
    node.kind === 'null'
  );
}

export function literalValue(node: LiteralNode): JsonValue {
  return node.value;
}
