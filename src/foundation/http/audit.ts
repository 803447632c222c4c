import type { FastifyRequest } from 'fastify';
import { addToRequestLine } from '../logging/request-log.js';
import type { AuditKind, AuditStore, NewAuditEvent } from '../storage/types.js';
import type { Gateway } from './gateway.js';

interface AuditFacts {
  readonly kind: AuditKind;
  readonly outcome: 'success' | 'failure';
  readonly entryId?: string | null;
  readonly userId?: string | null;
  readonly actor?: string | null;
  readonly code?: string | null;
  readonly reference?: string | null;
  readonly startedAt?: number;
  readonly detail?: NewAuditEvent['detail'];
}

/** Where the event's facts are logged: a line of their own, or the request's line. */
type AuditLogLine = 'own' | 'request';

/**
 * Appends an audit event and logs the same facts: on a line of their own,
 * or, with `logOn` 'request', on the request's own line when its answer is
 * sent (a sign-in's callback: one line per sign-in). An audit write that fails
 * (database down) is logged, never turned into the user's error; except
 * when `inTransaction` is given: the event is then part of that unit of work
 * (Storage.writeTogether), and its failure fails the whole of it, so a
 * sign-in is never made without its event.
 */
export async function audit(
  gateway: Gateway,
  request: FastifyRequest,
  facts: AuditFacts,
  inTransaction?: AuditStore,
  logOn: AuditLogLine = 'own',
): Promise<void> {
  const at = gateway.clock();
  const event: NewAuditEvent = {
    at,
    kind: facts.kind,
    outcome: facts.outcome,
    entryId: facts.entryId ?? null,
    userId: facts.userId ?? null,
    actor: facts.actor ?? null,
    code: facts.code ?? null,
    reference: facts.reference ?? null,
    durationMs: facts.startedAt === undefined ? null : at - facts.startedAt,
    detail: facts.detail ?? null,
  };
  if (logOn === 'request') addToRequestLine(request, { audit: { ...event, detail: undefined } });
  else {
    request.log.info(
      { audit: { ...event, detail: undefined } },
      `${event.kind} ${event.outcome}${event.code === null ? '' : ` ${event.code}`}`,
    );
  }
  if (inTransaction !== undefined) {
    await inTransaction.append(event);
    return;
  }
  try {
    await gateway.storage.audit.append(event);
  } catch (error) {
    request.log.error(
      { code: 'service_unavailable', err: error },
      'could not write the audit event',
    );
  }
}
