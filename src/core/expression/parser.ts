/**
 * Recursive-descent parser:
 *
 *   expr    := primary (('==' | '!=') primary)?
 *   primary := STRING | NUMBER | true | false | null | $response
 *            | IDENT '(' [expr (',' expr)*] ')' | '(' expr ')'
 *
 * Administrators type these, so the parser is also a validator: unknown
 * functions, wrong arity and bad literal JSON_PATH paths fail here, at save
 * time, with a column. Size and nesting are capped before recursion could
 * grow, so 10,000 parentheses fail cleanly instead of overflowing the stack.
 */
import { nearestName } from '../errors/nearest-name.js';
import type { CallNode, Expression, ExpressionNode } from './ast.js';
import { findFunction, functionNames } from './functions/index.js';
import type { Token } from './lexer.js';
import { Lexer } from './lexer.js';
import { quote, syntaxError } from './syntax-error.js';

const MAX_EXPRESSION_LENGTH = 4096;
const MAX_NESTING_DEPTH = 32;

const KEYWORDS: ReadonlyMap<string, ExpressionNode['kind']> = new Map([
  ['true', 'boolean'],
  ['false', 'boolean'],
  ['null', 'null'],
]);

function describeToken(token: Token): string {
  return token.kind === 'eof'
    ? 'end of expression'
    : quote(token.kind === 'string' ? 'string' : token.text || token.kind);
}

class Parser {
  private readonly lexer: Lexer;
  /** Source offsets of the characters of each string literal parsed. */
  private readonly literalOffsets = new Map<ExpressionNode, readonly number[]>();

  constructor(source: string) {
    this.lexer = new Lexer(source);
  }

  parseRoot(): ExpressionNode {
    if (this.lexer.peek().kind === 'eof') {
      throw syntaxError('expression_syntax', this.lexer.peek().start, 'expression is empty');
    }
    const root = this.parseExpr(0);
    const rest = this.lexer.peek();
    if (rest.kind !== 'eof') {
      const hint =
        rest.kind === '==' || rest.kind === '!=' ? '; comparisons cannot be chained' : '';
      throw syntaxError(
        'expression_syntax',
        rest.start,
        `unexpected ${describeToken(rest)}`,
        `; expected end of expression${hint}`,
      );
    }
    return root;
  }

  private parseExpr(depth: number): ExpressionNode {
    const left = this.parsePrimary(depth);
    const op = this.lexer.peek();
    if (op.kind !== '==' && op.kind !== '!=') {
      return left;
    }
    this.lexer.next();
    const right = this.parsePrimary(depth);
    return {
      kind: 'binary',
      start: left.start,
      operatorStart: op.start,
      operator: op.kind,
      left,
      right,
    };
  }

  private enter(depth: number, at: number): number {
    if (depth >= MAX_NESTING_DEPTH) {
      throw syntaxError('expression_limit', at, `nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    }
    return depth + 1;
  }

  private parsePrimary(depth: number): ExpressionNode {
    const token = this.lexer.next();
    switch (token.kind) {
      case 'string': {
        const node: ExpressionNode = { kind: 'string', start: token.start, value: token.text };
        this.literalOffsets.set(node, token.offsets);
        return node;
      }
      case 'number':
        return { kind: 'number', start: token.start, value: token.number };
      case 'response':
        return { kind: 'response', start: token.start };
      case '(': {
        const inner = this.parseExpr(this.enter(depth, token.start));
        this.expect(')');
        return inner;
      }
      case 'ident':
        return this.parseWord(token, depth);
      default:
        throw syntaxError(
          'expression_syntax',
          token.start,
          `expected a value`,
          `, found ${describeToken(token)}`,
        );
    }
  }

  private parseWord(token: Token, depth: number): ExpressionNode {
    const keyword = KEYWORDS.get(token.text.toLowerCase());
    if (keyword === 'boolean') {
      return { kind: 'boolean', start: token.start, value: token.text.toLowerCase() === 'true' };
    }
    if (keyword === 'null') {
      return { kind: 'null', start: token.start, value: null };
    }
    if (this.lexer.peek().kind !== '(') {
      throw syntaxError(
        'expression_syntax',
        token.start,
        `unexpected word ${quote(token.text)}`,
        "; text needs quotes, a function needs '('",
      );
    }
    const fn = findFunction(token.text);
    if (fn === undefined) {
      throw syntaxError(
        'expression_unknown_function',
        token.start,
        `unknown function ${quote(token.text)}`,
        `${didYouMean(token.text)}; known functions: ${functionNames.join(', ')}`,
      );
    }
    const inner = this.enter(depth, token.start);
    this.lexer.next(); // '('
    const args: ExpressionNode[] = [];
    if (this.lexer.peek().kind !== ')') {
      for (;;) {
        const arg = this.parseExpr(inner);
        if (args.length === fn.maxArgs) {
          throw syntaxError(
            'expression_arity',
            arg.start,
            `too many arguments`,
            `: ${fn.name}(${fn.params}) takes ${arity(fn.minArgs, fn.maxArgs)}`,
          );
        }
        args.push(arg);
        if (this.lexer.peek().kind !== ',') break;
        this.lexer.next();
      }
    }
    const close = this.expect(')', "expected ',' or ')'");
    if (args.length < fn.minArgs) {
      throw syntaxError(
        'expression_arity',
        close.start,
        `too few arguments`,
        `: ${fn.name}(${fn.params}) takes ${arity(fn.minArgs, fn.maxArgs)}, got ${args.length}`,
      );
    }
    const node: CallNode = {
      kind: 'call',
      start: token.start,
      name: token.text.toUpperCase(),
      args,
    };
    this.checkLiterals(node);
    return node;
  }

  private checkLiterals(node: CallNode): void {
    const check = findFunction(node.name)?.checkStringLiteral;
    node.args.forEach((arg, index) => {
      const offsets = this.literalOffsets.get(arg);
      if (check === undefined || arg.kind !== 'string' || offsets === undefined) return;
      const problem = check(index, arg.value);
      if (problem !== undefined) {
        throw syntaxError(
          'expression_syntax',
          offsets[problem.index] ?? arg.start,
          problem.message,
        );
      }
    });
  }

  private expect(kind: ')', message = `expected '${kind}'`): Token {
    const token = this.lexer.peek();
    if (token.kind !== kind) {
      throw syntaxError(
        'expression_syntax',
        token.start,
        message,
        token.kind === 'eof' ? ', found end of expression' : '',
      );
    }
    return this.lexer.next();
  }
}

function arity(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  return max === Infinity ? `at least ${min}` : `${min} to ${max} arguments`;
}

/**
 * Parses and validates an expression. Throws only SsogateError, with the
 * 1-based `column` of the offending character.
 */
export function parseExpression(source: string): Expression {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw syntaxError(
      'expression_limit',
      MAX_EXPRESSION_LENGTH,
      `expression longer than ${MAX_EXPRESSION_LENGTH} characters`,
      ` (it has ${source.length})`,
    );
  }
  return { source, root: new Parser(source).parseRoot() };
}

/** `; did you mean JSON_GET?` for a near miss of a known function, or nothing. */
function didYouMean(name: string): string {
  const near = nearestName(name, functionNames);
  return near === undefined ? '' : `; did you mean ${near}?`;
}
