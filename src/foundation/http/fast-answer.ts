import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import { logRequestCompleted } from '../logging/request-log.js';
import type { RoutineLines } from '../logging/routine-lines.js';
import type { FailureAnswer, FailureOptions } from './respond.js';
import { writeFailure } from './respond.js';
import { usableClient } from './forwarded-for.js';
import type { Gateway } from './gateway.js';

/**
 * What the fast paths (src/features/forward-auth/fast-path.ts,
 * src/features/reverse-proxy/fast-path.ts) need to answer like the framework: its
 * logger, request ids from its own sequence, and the same request line and
 * failure answer as its routes. One per app (src/app/build-app.ts).
 */
export class FastAnswers {
  private readonly trusted: ((address: string, hop: number) => boolean) | undefined;

  constructor(
    readonly gateway: Gateway,
    /** The framework's logger (the app exists only after its server factory ran). */
    readonly log: () => FastifyBaseLogger,
    /** The framework's request id sequence (its genReqId). */
    private readonly requestId: () => string,
    /** Which of the requests let through write their line, as the routes' routine requests do. */
    private readonly routineLines: RoutineLines,
  ) {
    const proxies = gateway.config.trustedProxies;
    this.trusted = proxies.length > 0 ? proxyAddr.compile([...proxies]) : undefined;
  }

  /** A logger for one request, carrying a request id as the framework's request logger does. */
  requestLog(): FastifyBaseLogger {
    return this.log().child({ reqId: this.requestId() });
  }

  /**
   * A request let through was answered (or passed on): a routine request,
   * whose line (when RoutineLines says it writes one) is written once the
   * response is over, as the framework's is. Every other fast answer (a
   * refusal, a failure) writes its line.
   */
  allowed(request: IncomingMessage, response: ServerResponse, startedAt: number): void {
    if (!this.routineLines.writesNext()) return;
    const log = this.requestLog();
    response.once('close', () => {
      this.completed(log, request, response.statusCode, startedAt);
    });
  }

  /** sendFailure's answer written without the framework, then the request line. */
  failed(
    request: IncomingMessage,
    response: ServerResponse,
    route: string,
    error: unknown,
    options: FailureOptions,
    startedAt: number,
  ): FailureAnswer {
    const log = this.requestLog();
    const answer = writeFailure(this.gateway, { log, route }, request, response, error, options);
    this.completed(log, request, answer.status, startedAt);
    return answer;
  }

  /** The request line of an answer, as the framework writes it (src/foundation/logging/request-log.ts). */
  completed(
    log: FastifyBaseLogger,
    request: IncomingMessage,
    status: number,
    startedAt: number,
  ): void {
    logRequestCompleted(
      log,
      { method: request.method ?? '', url: request.url ?? '', ip: this.clientAddress(request) },
      { statusCode: status },
      performance.now() - startedAt,
    );
  }

  /** `request.ip` as the framework gives it: through the trusted proxies, cut as forwarded-for.ts cuts. */
  private clientAddress(request: IncomingMessage): string | undefined {
    if (this.trusted === undefined) return request.socket.remoteAddress;
    return usableClient(proxyAddr.all(request, this.trusted));
  }
}
