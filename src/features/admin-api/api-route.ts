import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import { invalidField, sendApiFailure } from './api-failure.js';
import type { AdminActor } from './authenticate.js';
import { authenticateAdmin } from './authenticate.js';

export interface ApiCall {
  readonly request: FastifyRequest;
  readonly admin: AdminActor;
}

/** What an action answers: a status and, unless 204, a body already presented. */
export interface ApiResult {
  readonly status?: number;
  readonly body?: Record<string, unknown>;
}

/**
 * Every admin API route runs the same pipeline: authenticate
 * and authorize first, so an unauthorized caller learns nothing about the
 * input or the data; then the action validates, acts and presents; every
 * failure leaves through sendApiFailure.
 */
export function apiHandler(
  gateway: Gateway,
  action: (call: ApiCall) => Promise<ApiResult>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    // Answers hold configuration and personal data: no cache may keep them.
    void reply.header('cache-control', 'no-store');
    try {
      const admin = await authenticateAdmin(gateway, request);
      const result = await action({ request, admin });
      if (result.body === undefined) return await reply.code(result.status ?? 204).send();
      return await reply.code(result.status ?? 200).send(result.body);
    } catch (error) {
      sendApiFailure(gateway, request, reply, error);
      return reply;
    }
  };
}

/**
 * The request's body, which must be JSON: the form parser is registered for
 * the pages, and a form post is what a cross-site page can send.
 */
export function jsonBody(request: FastifyRequest): unknown {
  const type = request.headers['content-type'] ?? '';
  if (request.body === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    throw invalidField('body', 'must be a JSON object sent as application/json');
  }
  return request.body;
}
