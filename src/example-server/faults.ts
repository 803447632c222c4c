import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { Fault, FaultEndpoint, ResponseFault } from './types.js';

/** Faults queued by tests, consumed one per request to the endpoint. */
export class FaultQueue {
  private readonly queues: Record<FaultEndpoint, Fault[]> = {
    authorize: [],
    token: [],
    userinfo: [],
  };

  push(endpoint: FaultEndpoint, fault: Fault): void {
    this.queues[endpoint].push(fault);
  }

  take(endpoint: FaultEndpoint): Fault | undefined {
    return this.queues[endpoint].shift();
  }

  /** Drops every queued fault, so a fault window ends when its caller says. */
  clear(): void {
    for (const queue of Object.values(this.queues)) queue.length = 0;
  }
}

function contentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json; charset=utf-8';
  } catch {
    return 'text/plain; charset=utf-8';
  }
}

/**
 * Answers the request with the fault and returns true, or, for a delay,
 * waits and returns false so the endpoint then answers normally. The wait
 * ends early when the server closes, so close() never waits on a test's hang.
 */
export async function applyResponseFault(
  fault: ResponseFault,
  reply: FastifyReply,
  closing: AbortSignal,
): Promise<boolean> {
  if ('delayMs' in fault) {
    try {
      await delay(fault.delayMs, undefined, { signal: closing });
    } catch {
      reply.raw.destroy();
      return true;
    }
    return false;
  }
  if ('redirectTo' in fault) {
    await reply.redirect(fault.redirectTo, 302);
    return true;
  }
  const body = fault.body ?? '';
  await reply
    .code('status' in fault ? fault.status : 200)
    .type(contentType(body))
    .send(body);
  return true;
}

/** Narrows a fault of any endpoint to one an ordinary response can express. */
export function isResponseFault(fault: Fault): fault is ResponseFault {
  return !('error' in fault) && !('omitCode' in fault);
}
