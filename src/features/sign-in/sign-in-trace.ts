import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { CallbackQuery } from './complete-sign-in.js';
import { pendingKey } from './pending-key.js';
import { sourceOf } from './sources/source-registry.js';

type CallbackRequest = FastifyRequest<{ Params: { readonly id: string } }>;

/**
 * The callback route's handler, given the callback's fields (`fieldsOf`), run as the `sign_in.callback` span of its
 * sign-in's trace: the trace is named by the pending sign-in's key, which
 * its start knew too (src/foundation/observability/tracing.ts signInParent). Without
 * tracing, the handler itself.
 */
export function tracedCallback<R extends CallbackRequest>(
  gateway: Gateway,
  fieldsOf: (request: R) => CallbackQuery,
  handler: (request: R, reply: FastifyReply, query: CallbackQuery) => Promise<FastifyReply>,
): (request: R, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const query = fieldsOf(request);
    if (gateway.telemetry.tracing === undefined) return handler(request, reply, query);
    const entryId = request.params.id;
    const entry = await gateway.entries.get(entryId);
    const source = entry === undefined ? undefined : sourceOf(entry);
    const field = source?.callback.correlationField;
    const correlation = field === undefined ? undefined : query[field];
    const key =
      source === undefined
        ? `unknown entry:${entryId}`
        : pendingKey(
            entryId,
            source,
            typeof correlation === 'string' ? correlation : undefined,
            readCookie(gateway, request, 'binding') ?? '',
          );
    return gateway.telemetry.signInCallback(key, entry?.id ?? '', () =>
      handler(request, reply, query),
    );
  };
}
