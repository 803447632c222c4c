/**
 * Errors about the expression text itself. Every message reads
 * "<what> at column N[<more>]" and the column is also on the error, so the
 * console can underline the character and the API can return it as data.
 */
import { SsogateError } from '../errors/ssogate-error.js';

type SyntaxCode =
  'expression_syntax' | 'expression_unknown_function' | 'expression_arity' | 'expression_limit';

export function syntaxError(
  code: SyntaxCode,
  offset: number,
  what: string,
  more = '',
): SsogateError {
  const column = offset + 1;
  return new SsogateError(code, `${what} at column ${column}${more}`, { column });
}

export { quote } from './display.js';
