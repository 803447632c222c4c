/**
 * The parsed form of an expression. Every node records `start`, the 0-based
 * offset of its first character in the source, so that evaluation errors can
 * point at the column that failed long after the text was parsed.
 */

interface StringLiteralNode {
  readonly kind: 'string';
  readonly start: number;
  readonly value: string;
}

interface NumberLiteralNode {
  readonly kind: 'number';
  readonly start: number;
  readonly value: number;
}

interface BooleanLiteralNode {
  readonly kind: 'boolean';
  readonly start: number;
  readonly value: boolean;
}

interface NullLiteralNode {
  readonly kind: 'null';
  readonly start: number;
  readonly value: null;
}

/** `$response`: the body of the call's response, as a string. */
interface ResponseNode {
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

interface BinaryNode {
  readonly kind: 'binary';
  /** Offset of the left operand; `operatorStart` is that of `==` / `!=`. */
  readonly start: number;
  readonly operatorStart: number;
  readonly operator: '==' | '!=';
  readonly left: ExpressionNode;
  readonly right: ExpressionNode;
}

type LiteralNode = StringLiteralNode | NumberLiteralNode | BooleanLiteralNode | NullLiteralNode;

export type ExpressionNode = LiteralNode | ResponseNode | CallNode | BinaryNode;

/** A parsed expression, kept with its source for display and re-saving. */
export interface Expression {
  readonly source: string;
  readonly root: ExpressionNode;
}
