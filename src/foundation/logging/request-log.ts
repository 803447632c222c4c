import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Facts a route asks to have written on its request's line rather than on a
 * line of their own (a sign-in's audit event: src/foundation/http/audit.ts),
 * by request. Written once the answer is sent, so they also say the work
 * behind them was committed.
 */
const requestLineFacts = new WeakMap<object, Readonly<Record<string, unknown>>>();

/** Adds facts to the line `request completed` (or `request errored`) of this request. */
export function addToRequestLine(request: object, facts: Readonly<Record<string, unknown>>): void {
  requestLineFacts.set(request, { ...requestLineFacts.get(request), ...facts });
}

/**
 * One log line per request, written when its answer is sent, instead of
 * Fastify's two (one on arrival, one on completion): the completed line
 * carries the request too (method, masked path and query, address; see
 * loggerOptions), so nothing is lost, and a sign-in's three requests cost
 * the log half as much. Every other line of Fastify's is kept.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // Said by requestCompleted, with the outcome.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const facts = requestLineFacts.get(request);
    if (error) {
      const line = { ...facts, req: request, res: reply, responseTime: reply.elapsedTime };
      reply.log.error({ ...line, err: error }, 'request errored');
    } else logRequestCompleted(reply.log, request, reply, reply.elapsedTime, facts);
  }
}

/**
 * The line of a request answered, by a route or by a fast path
 * (src/foundation/http/fast-answer.ts): `req` and `res` go through the logger's
 * serializers (loggerOptions), which read the method, URL, client address
 * and status.
 */
export function logRequestCompleted(
  log: FastifyBaseLogger,
  request: { readonly method: string; readonly url: string; readonly ip?: string | undefined },
  reply: { readonly statusCode: number },
  responseTime: number,
  facts?: Readonly<Record<string, unknown>>,
): void {
  log.info({ ...facts, req: request, res: reply, responseTime }, 'request completed');
}
