import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';

/** The two steps of a handoff at the gateway (handoff.ts): issued on the auth host, finished on the other. */
type HandoffStep = 'start' | 'finish';

interface HandoffFacts {
  /** The host the handoff is for (as asked, cut to 255 characters, when it was refused). */
  readonly host: string;
  readonly userId?: string | null;
  readonly entryId?: string | null;
  /** Set when the step was refused: the error's code and the page's reference. */
  readonly refused?: { readonly code: string; readonly reference: string };
}

/**
 * One step of a handoff, audited (kind `handoff`, `action` start or finish,
 * the host) and counted (`ssogate_handoffs_total`, docs/metrics.md), its
 * refusals with their code. Never the code, the nonce or a session id.
 */
export async function recordHandoff(
  gateway: Gateway,
  request: FastifyRequest,
  step: HandoffStep,
  facts: HandoffFacts,
): Promise<void> {
  const { refused } = facts;
  gateway.telemetry.handoff(step, refused?.code ?? 'success');
  await audit(gateway, request, {
    kind: 'handoff',
    outcome: refused === undefined ? 'success' : 'failure',
    userId: facts.userId ?? null,
    entryId: facts.entryId ?? null,
    code: refused?.code ?? null,
    reference: refused?.reference ?? null,
    detail: { action: step, host: facts.host.slice(0, 255) },
  });
}

/**
 * Answers a refused step with the error's page, and audits and counts it;
 * `host` is the host the handoff was for, as far as the request says.
 */
export async function refuseHandoff(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  step: HandoffStep,
  error: SsogateError,
  host = '',
): Promise<FastifyReply> {
  const refused = sendFailure(gateway, request, reply, error, { as: 'page', tryAgainHref: '/' });
  await recordHandoff(gateway, request, step, { host, refused });
  return reply;
}
