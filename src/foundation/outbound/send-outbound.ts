import type { Dispatcher } from 'undici';
import type { OutboundRequest, ThirdPartyResponse } from '../../core/index.js';
import { loadUndici } from './lazy-module.js';
import { defaultUserAgent } from './user-agent.js';
import { describeCall, toOutboundError } from './outbound-error.js';
import { readCappedBody, tooLarge } from './read-body.js';

interface SendOptions {
  /** Another undici dispatcher (the outbound client's Agent, a MockAgent in tests). */
  readonly dispatcher?: Dispatcher;
  /** The call's deadline, when the caller started it earlier (to wait for a connection slot). */
  readonly deadline?: AbortSignal;
  /**
   * Called once undici is really done with the call, which can be after the
   * caller was answered: a connection still being set up when the deadline
   * fell ends only at the Agent's connect time-out.
   */
  readonly onSettled?: () => void;
  /** How errors name the call (describeCall), when the caller has it already. */
  readonly call?: string;
}

/**
 * Sends a call the core described and reads the answer (docs/design.md#templates-and-requests). undici's
 * `request`, unlike `fetch`, follows no redirects and inflates nothing, so a
 * 3xx comes back as a response and a gzip bomb stays its compressed size.
 * One deadline bounds the whole exchange: connecting (DNS, TCP and TLS),
 * headers and full body. undici does not abort a connection attempt on the
 * signal, so the caller is answered at the deadline whatever phase undici
 * is in, rather than when its own connect time-out fires.
 */
export async function sendOutbound(
  outbound: OutboundRequest,
  options: SendOptions = {},
): Promise<ThirdPartyResponse> {
  const call = options.call ?? describeCall(outbound.method, outbound.url);
  // undici is loaded with the first call, not with the gateway, and before
  // the deadline starts: the call's time-out is the exchange's alone.
  const { request } = await loadUndici();
  const deadline = options.deadline ?? AbortSignal.timeout(outbound.timeoutMs);
  const exchange = exchangeWith(request, outbound, call, deadline, options.dispatcher);
  const settled = (): void => options.onSettled?.();
  // Also marks the exchange's rejection handled when the deadline answered first.
  exchange.then(settled, settled);
  try {
    return await untilAborted(exchange, deadline);
  } catch (error) {
    throw toOutboundError(error, call, deadline, outbound.timeoutMs);
  }
}

async function exchangeWith(
  request: typeof import('undici').request,
  outbound: OutboundRequest,
  call: string,
  deadline: AbortSignal,
  dispatcher: Dispatcher | undefined,
): Promise<ThirdPartyResponse> {
  const response = await request(outbound.url, {
    method: outbound.method,
    headers: sentHeaders(outbound.headers),
    body: outbound.body ?? null,
    signal: deadline,
    ...(dispatcher === undefined ? {} : { dispatcher }),
  });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > outbound.maxResponseBytes) {
    // Refused on the announced length alone; destroying frees the socket.
    response.body.destroy();
    throw tooLarge(call, outbound.maxResponseBytes);
  }
  const body = await readCappedBody(response.body, outbound.maxResponseBytes, call);
  return { status: response.statusCode, body, headers: singleValued(response.headers) };
}

/** The promise's outcome, or the signal's reason as soon as it is aborted. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort);
    });
  });
}

/**
 * The call's headers as sent: never Accept-Encoding, since asking for
 * compression would invite a body far larger than the bytes counted; and
 * the default User-Agent unless the call names one (user-agent.ts).
 */
function sentHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const sent: Record<string, string> = {};
  let userAgentNamed = false;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'accept-encoding') continue;
    if (lower === 'user-agent') userAgentNamed = true;
    sent[name] = value;
  }
  if (!userAgentNamed) sent['user-agent'] = defaultUserAgent;
  return sent;
}

/** undici gives a repeated header as an array; joined as RFC 9110 §5.3 allows. */
function singleValued(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}
