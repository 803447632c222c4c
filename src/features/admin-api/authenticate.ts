import type { FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { consoleFactorRefusal } from '../sessions/console-factor.js';
import { consoleSessionOf } from '../sessions/console-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import type { ApiTokenOwner } from '../../foundation/storage/types.js';
import { ownerRefusal } from './api-tokens.js';

/** Who is calling the admin API, as the audit log names them. */
export interface AdminActor {
  /** An administrator's userId, or `token:NAME`. */
  readonly actor: string;
  readonly via: 'token' | 'session';
  /**
   * Whose rights the call stands on, and so the owner of a token it makes:
   * the signed-in administrator, or the calling token's owner; null for a
   * token made before owners were recorded.
   */
  readonly owner: ApiTokenOwner | null;
}

/** Methods that change nothing, so need no CSRF proof (RFC 9110 9.2.1). */
const safeMethods: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Authenticates and authorizes an admin API call, before anything in the
 * request is looked at: an API token (`Authorization: Bearer`), or an
 * administrator's session cookie of the auth host (sessions/console-session.ts),
 * holding a second factor if SSOGATE_ADMIN_SECOND_FACTOR asks for one
 * (sessions/console-factor.ts). A cookie is sent by the browser on its
 * own, so a changing call by cookie must also prove it came from our page
 * with the X-CSRF-Token header, which another origin cannot read or set.
 */
export async function authenticateAdmin(
  gateway: Gateway,
  request: FastifyRequest,
): Promise<AdminActor> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) return authenticateToken(gateway, request, authorization);

  const active = await consoleSessionOf(gateway, request);
  if (active === undefined) {
    throw new SsogateError('unauthenticated', 'no API token and no valid session');
  }
  if (!active.user.isAdmin) {
    throw new SsogateError('forbidden', `${active.user.userId} is not an administrator`);
  }
  // SSOGATE_ADMIN_SECOND_FACTOR: the session's factor, as the console page
  // asks it; a token is no sign-in and is not asked.
  const noFactor = consoleFactorRefusal(gateway, active, request.url.split('?')[0] ?? '');
  if (noFactor !== undefined) throw noFactor;
  if (!safeMethods.has(request.method)) {
    const header = request.headers['x-csrf-token'];
    if (typeof header !== 'string' || header !== csrfTokenFor(active.id)) {
      throw new SsogateError('csrf_failed', 'the X-CSRF-Token header is missing or wrong');
    }
  }
  const { id: userRowId, userId } = active.user;
  return { actor: userId, via: 'session', owner: { kind: 'user', userRowId, userId } };
}

async function authenticateToken(
  gateway: Gateway,
  request: FastifyRequest,
  authorization: string,
): Promise<AdminActor> {
  // RFC 6750 2.1: the scheme is case-insensitive; the token is opaque.
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  if (token === undefined) {
    throw new SsogateError('unauthenticated', 'the Authorization header is not a Bearer token');
  }
  const record = await gateway.storage.apiTokens.findActiveByHash(sha256Base64url(token));
  if (record === undefined) {
    throw new SsogateError('unauthenticated', 'the API token is unknown or revoked');
  }
  if (record.expiresAt !== null && record.expiresAt <= gateway.clock()) {
    throw new SsogateError(
      'api_token_expired',
      `the API token "${record.name}" expired at ${new Date(record.expiresAt).toISOString()}`,
    );
  }
  const actor = `token:${record.name}`;
  const refusal = await ownerRefusal(gateway.storage, record.owner);
  if (refusal !== undefined) {
    await audit(gateway, request, {
      kind: 'token_change',
      outcome: 'failure',
      code: 'api_token_owner_revoked',
      actor,
      userId: record.owner?.kind === 'user' ? record.owner.userId : null,
      detail: { action: 'refuse', tokenId: record.id, name: record.name, reason: refusal },
    });
    throw new SsogateError('api_token_owner_revoked', `the API token "${record.name}": ${refusal}`);
  }
  await gateway.storage.apiTokens.markUsed(record.id, gateway.clock());
  return { actor, via: 'token', owner: record.owner };
}
