import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { EntryInvalidError, SsogateError, fieldPath, maskSecrets } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';

/**
 * A query, path or body that does not have the expected shape. Like
 * EntryInvalidError it carries one coded problem per field, so a client (or
 * the console) can put each message next to its field.
 */
export class RequestInvalidError extends SsogateError<'request_invalid'> {
  readonly problems: readonly SsogateError[];

  constructor(problems: readonly SsogateError[]) {
    super(
      'request_invalid',
      problems.map((p) => `${p.field ?? 'request'}: ${p.message}`).join('; '),
    );
    this.problems = problems;
  }
}

/** A single problem in one named field. */
export function invalidField(field: string, message: string): RequestInvalidError {
  return new RequestInvalidError([new SsogateError('field_invalid', message, { field })]);
}

/** Turns a zod failure into request_invalid, each issue named by its field. */
function requestInvalid(error: z.ZodError, where: string): RequestInvalidError {
  return new RequestInvalidError(
    error.issues.flatMap((issue) => {
      const base = fieldPath(issue.path);
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      return keys.map((key) => {
        const field = [where, base, key].filter((part) => part !== undefined && part !== '');
        const message = key === undefined ? issue.message : 'is not an accepted parameter';
        return new SsogateError('field_invalid', message, { field: field.join('.') });
      });
    }),
  );
}

/** Parses `value` with `schema`, or throws request_invalid naming the field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw requestInvalid(result.error, where);
  return result.data;
}

/**
 * Input problems are the administrator's own input described back to them,
 * with every problem listed (the shape the console shows beside each field);
 * everything else goes through the one central sendFailure.
 */
export function sendApiFailure(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): void {
  if (error instanceof EntryInvalidError || error instanceof RequestInvalidError) {
    request.log.warn({ code: error.code }, maskSecrets(error.message));
    void reply.code(error.status).send({
      error: {
        code: error.code,
        message: error.message,
        problems: error.problems.map(presentProblem),
      },
    });
    return;
  }
  sendFailure(gateway, request, reply, error, { as: 'json' });
}

/**
 * A problem as the API lists it: code, field, position, message, and the
 * message's values (`params`) where the problem has them, so the console
 * says it in the administrator's language from the code and the values.
 */
export function presentProblem(
  problem: SsogateError,
): Record<string, string | number | Readonly<Record<string, string | number>>> {
  return {
    code: problem.code,
    field: problem.field ?? 'entry',
    ...(problem.line === undefined ? {} : { line: problem.line }),
    ...(problem.column === undefined ? {} : { column: problem.column }),
    message: problem.message,
    ...(problem.facts === undefined ? {} : { params: problem.facts }),
  };
}
