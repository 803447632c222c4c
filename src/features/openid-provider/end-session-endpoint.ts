import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { clearSessionCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from './provider-gateway.js';
import { sessionOf } from '../sessions/request-session.js';
import { endSession } from '../sessions/session-service.js';
import { getRequestPath, providerPaths } from './endpoints.js';
import { sendSignedOutWithFrames } from '../../foundation/http/sign-out-frames.js';
import { hintNames, hintedBy } from './id-token-hint.js';
import { refusePage } from './authorization-request.js';

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): with an
 * id_token_hint this provider signed, the gateway's session of that user
 * ends here, and the browser goes to the client's post_logout_redirect_uri
 * if it is one of the client's, exactly, or to the signed-out page. Without
 * a valid hint nothing ends, so no other site can sign a user out. GET and
 * POST alike (RP-Initiated Logout 1.0 §2): a POST's form holds the parameters.
 */
export async function endSessionAtClient(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  void reply.header('cache-control', 'no-store');
  const posted = request.method === 'POST';
  const parameters = { ...((posted ? request.body : request.query) ?? {}) } as Record<
    string,
    unknown
  >;
  // Audited as a failed `sign_out`, with the client a valid hint names (one this provider signed for).
  const fail = (why: string, clientId?: string) => {
    const facts = clientId === undefined ? {} : { facts: { clientId } };
    return refusePage(
      gateway,
      request,
      reply,
      new SsogateError('oidc_logout_invalid', why, facts),
      'sign_out',
    );
  };
  const hint = await hintedBy(gateway, parameters.id_token_hint);
  if (hint === undefined) return fail('no valid id_token_hint');
  if (parameters.client_id !== undefined && parameters.client_id !== hint.clientId) {
    return fail('the client_id is not the id_token_hint audience', hint.clientId);
  }
  const client = await gateway.storage.providerClients.get(hint.clientId);
  const target = parameters.post_logout_redirect_uri;
  if (target !== undefined) {
    if (typeof target !== 'string' || client?.postLogoutRedirectUris.includes(target) !== true) {
      return fail(
        "the post_logout_redirect_uri is not one of the client's, exactly",
        hint.clientId,
      );
    }
  }
  // Only the hinted user's session ends: the hint does not speak for another's.
  const current = await sessionOf(gateway, request);
  if (posted && current === undefined) {
    // A cross-site POST comes without the SameSite=Lax session cookie: the
    // same request as a GET (a top-level navigation) brings it, if there is one.
    return reply.redirect(getRequestPath(providerPaths.endSession, stringsOf(parameters)), 303);
  }
  const hinted = current !== undefined && (await hintNames(gateway, hint, current));
  // The pages the sign-in's end adds: its clients' front-channel logout pages.
  const frames: string[] = [];
  const ended = hinted ? await endSession(gateway.sessions, current.id, frames) : undefined;
  if (ended !== undefined) {
    clearSessionCookie(gateway, reply);
    await audit(gateway, request, {
      kind: 'sign_out',
      outcome: 'success',
      entryId: ended.session.entryId,
      userId: ended.user.userId,
      detail: { scope: 'here', client: hint.clientId },
    });
  }
  if (typeof target !== 'string') {
    return frames.length === 0
      ? reply.redirect('/_sso/signed-out?scope=here', 302)
      : sendSignedOutWithFrames(gateway, reply, { scope: 'here', frames });
  }
  const url = new URL(target);
  if (typeof parameters.state === 'string') url.searchParams.append('state', parameters.state);
  return frames.length === 0
    ? reply.redirect(url.href, 302)
    : sendSignedOutWithFrames(gateway, reply, { scope: 'here', frames, continueTo: url.href });
}

/** The parameters that are single strings (a repeated one is dropped: GET reads only those). */
function stringsOf(parameters: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(parameters).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
