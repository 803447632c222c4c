import { STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../core/index.js';
import { SsogateError, errorRegistry, isSsogateError, maskSecrets } from '../../core/index.js';
import { errorPage, flowErrorSentences } from '../pages/index.js';
import type { ErrorPageInput, PageContext } from '../pages/index.js';
import { isBackendUnavailable } from '../storage/backend-errors.js';
import { newReferenceId, securityHeaders } from '../web/index.js';
import type { Gateway } from './gateway.js';
import { pageContext } from './page-context.js';
import type { PageRequest } from './page-context.js';

/** A top-level page load: GET (or HEAD) asking for HTML (docs/design.md#the-sign-in-flow, step 2). */
export function wantsPage(request: {
  readonly method?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}): boolean {
  const accept = request.headers.accept ?? '';
  return (request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html');
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/**
 * A request that needs a session and carries none. Anonymous requests are
 * routine (a visitor's first page, every forward-auth check before sign-in),
 * so failureAnswer logs this refusal at debug: at warn it would drown the
 * warnings operators alert on. Every other failure keeps its level, an
 * unknown API token (also `unauthenticated`) included.
 */
export class NoSessionError extends SsogateError<'unauthenticated'> {
  constructor() {
    super('unauthenticated', 'no session');
  }
}

export interface FailureOptions {
  /** Where the page's "try again" link goes. */
  readonly tryAgainHref?: string;
  /** Force the HTML page (the callback is always a page) or JSON. */
  readonly as?: 'page' | 'json';
  /** Who is signed in, for a page that refuses a signed-in user (pages/error-page.ts). */
  readonly signedIn?: ErrorPageInput['signedIn'];
  /** The page's language and organisation; sendFailure takes them from the request. */
  readonly page?: PageContext;
}

interface FailureReport {
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
  const route = request.routeOptions.url ?? '';
  const { answer, head } = failureFor(
    gateway,
    { log: request.log, route },
    request,
    error,
    options,
  );
  for (const [name, value] of Object.entries(head)) void reply.header(name, value);
  void reply.code(answer.status).send(answer.body);
  return answer;
}

/**
 * sendFailure for a request answered without the framework (the fast paths,
 * src/features/forward-auth/fast-path.ts and src/features/reverse-proxy/fast-path.ts): the same
 * answer, logged the same way, with the same head: the page headers the
 * app's onSend hook adds (build-app.ts), then the failure's own.
 */
export function writeFailure(
  gateway: Gateway,
  where: { readonly log: FastifyBaseLogger; readonly route: string },
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
  options: FailureOptions = {},
): FailureAnswer {
  const { answer, head } = failureFor(gateway, where, request, error, options);
  response.writeHead(answer.status, {
    ...securityHeaders({ https: gateway.config.secureCookies }),
    ...head,
    'content-length': Buffer.byteLength(answer.body),
  });
  response.end(request.method === 'HEAD' ? undefined : answer.body);
  return answer;
}

/**
 * The failure's answer, page or JSON as the options and the request say,
 * and its own headers: Retry-After where it applies, and the body's type.
 */
function failureFor(
  gateway: Gateway,
  where: { readonly log: FastifyBaseLogger; readonly route: string },
  request: PageRequest,
  error: unknown,
  options: FailureOptions,
): { readonly answer: FailureAnswer; readonly head: Record<string, string> } {
  const asPage = options.as === 'page' || (options.as === undefined && wantsPage(request));
  const page = options.page ?? pageContext(gateway, request);
  const answer = failureAnswer(gateway, where, error, asPage, { ...options, page });
  const contentType = asPage ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
  return { answer, head: { ...answer.headers, 'content-type': contentType } };
}

/** A failure's answer, logged, for sendFailure or a server answering without the framework. */
export interface FailureAnswer extends FailureReport {
  readonly status: number;
  /** Retry-After where it applies; the content type comes with `asPage`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The error page, or the JSON text of `{ error: { code, message, reference } }`. */
  readonly body: string;
}

/**
 * What sendFailure sends, logged once: the code and its status, the page or
 * JSON body, and the headers a 429 or 503 carries.
 */
function failureAnswer(
  gateway: Gateway,
  /** Where the failure is logged, and the route pattern its trace names. */
  { log, route }: { readonly log: FastifyBaseLogger; readonly route: string },
  error: unknown,
  asPage: boolean,
  options: FailureOptions = {},
): FailureAnswer {
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
  const trace = gateway.telemetry.failure(code, reference, route, error);
  if (code === 'internal_error') {
    log.error({ code, reference, ...trace, err: error }, 'unexpected failure');
  } else {
    const message = isSsogateError(error) ? maskSecrets(error.message) : '';
    const level = error instanceof NoSessionError ? 'debug' : status >= 500 ? 'error' : 'warn';
    log[level]({ code, reference, ...trace }, message);
  }
  const sentence = flowErrorSentences[code] ?? errorRegistry[code].summary;
  const detail = isSsogateError(error) ? error.publicDetail : undefined;
  const headers: Record<string, string> = {};
  if (status === 429) {
    const seconds = (isSsogateError(error) ? error.retryAfterSeconds : undefined) ?? 900;
    headers['retry-after'] = String(seconds);
  }
  if (status === 503) headers['retry-after'] = '5';
  const body = asPage
    ? errorPage({
        status,
        code,
        sentence,
        ...(detail === undefined ? {} : { detail }),
        ...(isSsogateError(error) && error.facts !== undefined ? { facts: error.facts } : {}),
        reference,
        tryAgainHref: options.tryAgainHref ?? '/_sso/login',
        ...(options.signedIn === undefined ? {} : { signedIn: options.signedIn }),
        ...(options.page === undefined ? {} : { page: options.page }),
      })
    : JSON.stringify({
        error: { code, message: sentence, reference, ...(detail === undefined ? {} : { detail }) },
      });
  return { code, reference, status, headers, body };
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
