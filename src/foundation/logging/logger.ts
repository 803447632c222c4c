import { pino } from 'pino';
import type { DestinationStream, LoggerOptions } from 'pino';
import { maskSecrets } from '../../core/index.js';

/**
 * The request URL as logged: the path, and the query with the values of
 * sensitive parameters (code, state, tokens) masked, so a callback or a
 * GET-style token URL never writes a credential to the log.
 */
function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : `${url.slice(0, queryAt)}?${maskSecrets(url.slice(queryAt + 1))}`;
}

interface LoggableRequest {
  readonly method: string;
  readonly url: string;
  readonly ip?: string;
}

/**
 * pino options for the gateway: request lines without cookies, credentials
 * or raw query strings (they may carry tokens and codes). A request and an
 * answer are logged as what their serializers pick, never as themselves, so
 * no header reaches a line (neither Cookie nor Authorization, nor an
 * answer's Set-Cookie): an allowlist, which needs no redaction pass over
 * every line after it. Errors are logged by the central handler with their
 * code and masked message, never as whole objects whose causes might carry
 * a response body.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: {
      req: (request: LoggableRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        remoteAddress: request.ip,
      }),
      res: (reply: { readonly statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

/**
 * Standard output for the log, written without blocking: lines are queued
 * while a write is under way and go out together, so a slow reader of the
 * log (a pipe, a terminal) never stalls request handling. What is queued is
 * flushed when the process exits normally; a crash of the process itself
 * can lose the lines of its last moment.
 */
export function logDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}
