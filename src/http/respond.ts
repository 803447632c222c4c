import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../core/index.js';
import { SsogateError, errorRegistry, isSsogateError, maskSecrets } from '../core/index.js';
import { errorPage, flowErrorSentences } from '../pages/index.js';
import { isBackendUnavailable } from '../storage/backend-errors.js';
import { newReferenceId } from '../web/index.js';
import type { Gateway } from './gateway.js';

/** A top-level page load: GET (or HEAD) asking for HTML (docs/design.md#the-sign-in-flow, step 2). */
export function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return (request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html');
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

export interface FailureOptions {
  /** Where the page's "try again" link goes. */
  readonly tryAgainHref?: string;
  /** Force the HTML page (the callback is always a page) or JSON. */
  readonly as?: 'page' | 'json';
}

export interface FailureReport {
  readonly code: ErrorCode;
  readonly reference: string;
}

/**
 * The one place a failure becomes a response: a coded error
 * keeps its code; anything else becomes internal_error, never leaking its
 * message. The log gets the code, reference and masked message; the client a
 * plain sentence, the code and the reference. A database or Redis that cannot
 * be reached is service_unavailable (503, try again), not a bug.
 */
export function sendFailure(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  options: FailureOptions = {},
): FailureReport {
  // Only uncoded errors: a coded one (an IdP call refused, say) keeps its code
  // even when its cause is a socket error.
  if (!isSsogateError(error) && isBackendUnavailable(error)) {
    // The driver's own words (masked below) tell the operator which service.
    const detail = error instanceof Error ? `: ${error.message}` : '';
    error = new SsogateError('service_unavailable', `a backing service is unreachable${detail}`, {
      cause: error,
    });
  }
  const reference = newReferenceId(gateway.random);
  const code: ErrorCode = isSsogateError(error) ? error.code : 'internal_error';
  const status = errorRegistry[code].status;
  const trace = gateway.telemetry.failure(code, reference, request.routeOptions.url ?? '', error);
  if (code === 'internal_error') {
    request.log.error({ code, reference, ...trace, err: error }, 'unexpected failure');
  } else {
    const message = isSsogateError(error) ? maskSecrets(error.message) : '';
    request.log[status >= 500 ? 'error' : 'warn']({ code, reference, ...trace }, message);
  }
  const sentence = flowErrorSentences[code] ?? errorRegistry[code].summary;
  const detail = isSsogateError(error) ? error.publicDetail : undefined;
  const asPage = options.as === 'page' || (options.as === undefined && wantsPage(request));
  if (status === 429) {
    const seconds = (isSsogateError(error) ? error.retryAfterSeconds : undefined) ?? 900;
    void reply.header('retry-after', String(seconds));
  }
  if (status === 503) void reply.header('retry-after', '5');
  if (asPage) {
    sendPage(
      reply,
      status,
      errorPage({
        status,
        code,
        sentence,
        ...(detail === undefined ? {} : { detail }),
        reference,
        tryAgainHref: options.tryAgainHref ?? '/_sso/login',
      }),
    );
  } else {
    void reply.code(status).send({
      error: { code, message: sentence, reference, ...(detail === undefined ? {} : { detail }) },
    });
  }
  return { code, reference };
}

/**
 * A coded failure for a request Fastify does not answer (a WebSocket
 * handshake, a body that timed out): logged with a reference like
 * sendFailure's, and the JSON body to send.
 */
export function codedFailure(
  gateway: Gateway,
  log: FastifyBaseLogger,
  code: ErrorCode,
  message: string,
): { readonly status: number; readonly body: string } {
  const { status, summary } = errorRegistry[code];
  const reference = newReferenceId(gateway.random);
  log[status >= 500 ? 'error' : 'warn']({ code, reference }, message);
  return { status, body: JSON.stringify({ error: { code, message: summary, reference } }) };
}

/** codedFailure written straight on a connection, which is then closed. */
export function endWithFailure(
  gateway: Gateway,
  log: FastifyBaseLogger,
  socket: Duplex,
  code: ErrorCode,
  message: string,
): void {
  const { status, body } = codedFailure(gateway, log, code, message);
  // The server's sockets are half-open: without the destroy, a client that
  // never closes its side would keep the connection.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
