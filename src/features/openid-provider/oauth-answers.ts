import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode, ProviderRefusal } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { AuditKind } from '../../foundation/storage/types.js';

/**
 * An error of the token and userinfo endpoints, in OAuth's own form
 * ({ error, error_description }, RFC 6749 §5.2), which relying parties read,
 * rather than the gateway's coded envelope; its status, error and
 * description come from the registry (src/core/provider/refusals.ts).
 * Never cached.
 */
export function oauthError(reply: FastifyReply, refusal: ProviderRefusal): FastifyReply {
  return reply
    .code(refusal.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: refusal.error, error_description: refusal.description });
}

/** Who and what a refusal concerns, as far as it is known when it is made. */
export interface RefusalFacts {
  /** A registered client's id only: an id no client has is whatever the caller sent. */
  readonly clientId?: string | undefined;
  readonly userId?: string | null | undefined;
  readonly entryId?: string | null | undefined;
  /** The reference id of an error page of ours. */
  readonly reference?: string | undefined;
  /** More that tells one refusal from another (a grant type, an endpoint); never a secret. */
  readonly detail?: Readonly<Record<string, string | boolean>>;
}

/**
 * Audits a refusal of the provider: one failed event of `kind` with its
 * code, through the one audit path (foundation/http/audit.ts), so a refused
 * request writes one event, as a served one does; never a code, token,
 * secret, hint or redirect URI, only the client's id.
 */
export async function auditRefusal(
  gateway: Gateway,
  request: FastifyRequest,
  kind: AuditKind,
  code: ErrorCode,
  facts: RefusalFacts,
): Promise<void> {
  const detail = {
    ...(facts.clientId === undefined ? {} : { clientId: facts.clientId }),
    ...facts.detail,
  };
  await audit(gateway, request, {
    kind,
    outcome: 'failure',
    code,
    entryId: facts.entryId ?? null,
    userId: facts.userId ?? null,
    reference: facts.reference ?? null,
    detail: Object.keys(detail).length === 0 ? null : detail,
  });
}
