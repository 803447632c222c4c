import type { Dispatcher } from 'undici';
import { request } from 'undici';
import type { OutboundRequest, ThirdPartyResponse } from '../core/index.js';
import { describeCall, toOutboundError } from './outbound-error.js';
import { readCappedBody, tooLarge } from './read-body.js';

export interface SendOptions {
  /** Another undici dispatcher (an Agent with a custom CA, a MockAgent in tests). */
  readonly dispatcher?: Dispatcher;
}

/**
 * Sends a call the core described and reads the answer (docs/design.md#templates-and-requests). undici's
 * `request`, unlike `fetch`, follows no redirects and inflates nothing, so a
 * 3xx comes back as a response and a gzip bomb stays its compressed size.
 * One signal bounds the whole exchange: connecting, headers and full body.
 */
export async function sendOutbound(
  outbound: OutboundRequest,
  options: SendOptions = {},
): Promise<ThirdPartyResponse> {
  const call = describeCall(outbound.method, outbound.url);
  const deadline = AbortSignal.timeout(outbound.timeoutMs);
  try {
    const response = await request(outbound.url, {
      method: outbound.method,
      headers: withoutAcceptEncoding(outbound.headers),
      body: outbound.body ?? null,
      signal: deadline,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > outbound.maxResponseBytes) {
      // Refused on the announced length alone; destroying frees the socket.
      response.body.destroy();
      throw tooLarge(call, outbound.maxResponseBytes);
    }
    const body = await readCappedBody(response.body, outbound.maxResponseBytes, call);
    return { status: response.statusCode, body, headers: singleValued(response.headers) };
  } catch (error) {
    throw toOutboundError(error, call, deadline, outbound.timeoutMs);
  }
}

/** Asking for compression would invite a body far larger than the bytes counted. */
function withoutAcceptEncoding(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'accept-encoding'),
  );
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
