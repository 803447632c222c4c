import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { RoutineLines } from './routine-lines.js';

/**
 * Facts a route asks to have written on its request's line rather than on a
 * line of their own (a sign-in's audit event: src/foundation/http/audit.ts),
 * by request. Written once the answer is sent, so they also say the work
 * behind them was committed.
 */
const requestLineFacts = new WeakMap<object, Readonly<Record<string, unknown>>>();

/** Requests a route called routine (markRoutine): their line is sampled. */
const routineRequests = new WeakSet<object>();

/** Adds facts to the line `request completed` (or `request errored`) of this request. */
export function addToRequestLine(request: object, facts: Readonly<Record<string, unknown>>): void {
  requestLineFacts.set(request, { ...requestLineFacts.get(request), ...facts });
}

/**
 * Marks a request as routine (a sign-in's start sent on to its provider,
 * the portal page of a signed-in user): answered below 400, its line is written as RoutineLines decides
 * (routine-lines.ts); failed, always.
 */
export function markRoutine(request: object): void {
  routineRequests.add(request);
}

/**
 * One log line per request, written when its answer is sent, instead of
 * Fastify's two (one on arrival, one on completion): the completed line
 * carries the request too (method, masked path and query, address; see
 * loggerOptions), so nothing is lost, and a sign-in's three requests cost
 * the log half as much. Every other line of Fastify's is kept. A routine
 * request (markRoutine) answered below 400 writes its line when
 * `routineLines` says so (every one unless the app gives its own).
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly routineLines = new RoutineLines('all')) {
    super();
  }

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
      return;
    }
    if (reply.statusCode < 400 && routineRequests.has(request) && !this.routineLines.writesNext())
      return;
    logRequestCompleted(reply.log, request, reply, reply.elapsedTime, facts);
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
