import type { FastifyReply } from 'fastify';
import type { RouteContext } from './context.js';
import { applyResponseFault, isResponseFault } from './faults.js';

/**
 * Applies a queued fault of a token or user-info endpoint. True when the
 * fault answered the request; false to answer normally (none, or a delay).
 */
export async function answerFault(
  endpoint: 'token' | 'userinfo',
  reply: FastifyReply,
  context: RouteContext,
): Promise<boolean> {
  const fault = context.faults.take(endpoint);
  if (fault === undefined || !isResponseFault(fault)) return false;
  return applyResponseFault(fault, reply, context.closing);
}
