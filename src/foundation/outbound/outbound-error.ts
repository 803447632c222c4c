import { SsogateError, isSsogateError } from '../../core/index.js';

/**
 * Names a call by its method and host only: the URL's query can hold the app
 * secret or the code, and the body can hold both, so neither is ever quoted.
 */
export function describeCall(method: string, url: string | URL): string {
  let host: string;
  try {
    host = (typeof url === 'string' ? new URL(url) : url).host;
  } catch {
    host = '(unparsable URL)';
  }
  return `${method} to ${host}`;
}

/** Undici and Node put a stable code on their errors (ECONNREFUSED, UND_ERR_SOCKET, ...). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // A failed connect is sometimes wrapped (AggregateError for happy-eyeballs).
  const { cause } = error as { cause?: unknown };
  return cause === undefined ? undefined : errorCode(cause);
}

/**
 * Turns whatever undici threw into one of the outbound codes. The deadline's
 * own signal decides whether it was a time-out, not the error's shape, which
 * differs by the phase the call was in when the deadline fell.
 */
export function toOutboundError(
  error: unknown,
  call: string,
  deadline: AbortSignal,
  timeoutMs: number,
): SsogateError {
  if (isSsogateError(error)) return error;
  const code = errorCode(error);
  if (deadline.aborted || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new SsogateError('outbound_timeout', `${call} did not complete within ${timeoutMs} ms`, {
      cause: error,
      facts: { call, timeoutMs },
    });
  }
  // The code, not the undici message: a message could one day quote the URL.
  const reason = code === undefined ? '' : ` (${code})`;
  return new SsogateError('outbound_network', `${call} failed${reason}`, {
    cause: error,
    facts: { call, ...(code === undefined ? {} : { network: code }) },
  });
}
