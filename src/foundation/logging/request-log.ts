import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

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
    if (error) {
      const line = { req: request, res: reply, responseTime: reply.elapsedTime };
      reply.log.error({ ...line, err: error }, 'request errored');
    } else logRequestCompleted(reply.log, request, reply, reply.elapsedTime);
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
): void {
  log.info({ req: request, res: reply, responseTime }, 'request completed');
}
