import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledSamlEntry } from '../../core/index.js';
import { SsogateError, excerpt, samlOf } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import type { SamlIdentityProvider } from './idp-metadata.js';
import { identityProviderOf } from './idp-metadata.js';
import type { LogoutMessage } from './logout-messages.js';
import { logoutResponseXml, readLogoutMessage, statusSuccess } from './logout-messages.js';
import type { RedirectMessage } from './redirect-binding.js';
import { readRedirectQuery, redirectUrl } from './redirect-binding.js';
import type { SamlEndpoints } from './saml-endpoints.js';
import { samlEndpoints } from './saml-endpoints.js';
import { logoutAnswerWindowMs, sentLogoutRequestKey } from './sp-logout.js';

/** How old an identity provider's LogoutRequest may be when it arrives, beyond the clock skew. */
const logoutRequestMaxAgeMs = 10 * 60 * 1000;

/**
 * GET /_sso/saml/{id}/logout: the SingleLogoutService of a SAML entry, by
 * the HTTP-Redirect binding (SAML Profiles §4.4, Bindings §3.4), as the
 * service provider's metadata publishes it (routes.ts). It takes both
 * messages of single logout:
 *
 * - the identity provider's LogoutResponse to the LogoutRequest the
 *   gateway's sign-out sent (sp-logout.ts): checked, then the browser goes
 *   to the signed-out page; the session had ended before it left;
 * - the identity provider's own LogoutRequest (§4.4.3.2, IdP-initiated):
 *   checked, every session of its NameID (and SessionIndex) from this
 *   entry ends, and a LogoutResponse goes back by redirect.
 *
 * Each refusal has its own code, on the error page; never cached.
 */
export function samlLogoutRoute(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Params: { readonly id: string } }>('/_sso/saml/:id/logout', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const entryId = request.params.id;
    try {
      const found = await gateway.entries.get(entryId);
      const entry = found === undefined ? undefined : samlOf(found);
      if (entry === undefined) throw new SsogateError('entry_unknown', `no SAML entry ${entryId}`);
      const url = request.raw.url ?? '';
      const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
      const message = readRedirectQuery(query);
      const idp = await identityProviderOf(entry, gateway.documents);
      const endpoints = samlEndpoints(gateway.config.publicUrl, entry);
      const read = await readLogoutMessage(message.xml);
      const expected = message.kind === 'SAMLRequest' ? 'LogoutRequest' : 'LogoutResponse';
      if (read.kind !== expected) {
        throw new SsogateError('saml_logout_invalid', `the ${message.kind} is a ${read.kind}`);
      }
      return read.kind === 'LogoutRequest'
        ? await answerLogoutRequest(gateway, request, reply, {
            entry,
            idp,
            endpoints,
            message,
            read,
          })
        : await takeLogoutResponse(gateway, request, reply, {
            entry,
            idp,
            endpoints,
            message,
            read,
          });
    } catch (error) {
      sendFailure(gateway, request, reply, error, { as: 'page' });
      return reply;
    }
  });
}

interface Received {
  readonly entry: CompiledSamlEntry;
  readonly idp: SamlIdentityProvider;
  readonly endpoints: SamlEndpoints;
  readonly message: RedirectMessage;
  readonly read: LogoutMessage;
}

/**
 * What both messages must be (SAML Profiles §4.4.4): by the entry's
 * identity provider (its Issuer, SAML Core §3.2.2), for this endpoint (its
 * Destination, which SAML Bindings §3.4.5.2 requires of a signed message),
 * and, when signed or `mustBeSigned`, signed by a certificate of the
 * identity provider's (SAML Bindings §3.4.4.1).
 */
function checkSender({ idp, endpoints, message, read }: Received, mustBeSigned: boolean): void {
  if (message.signed || mustBeSigned) {
    if (!message.signed) {
      throw new SsogateError('saml_logout_signature_invalid', `the ${read.kind} is unsigned`);
    }
    if (!message.signedBy(idp.certificates)) {
      throw new SsogateError(
        'saml_logout_signature_invalid',
        `the ${read.kind}'s signature does not hold by the identity provider's certificate, or its SigAlg is not allowed`,
      );
    }
  }
  if (read.issuer !== idp.entityId) {
    throw new SsogateError(
      'saml_issuer_mismatch',
      `the ${read.kind} was issued by ${excerpt(read.issuer ?? 'no one', 200)}`,
    );
  }
  if (read.destination === undefined ? message.signed : read.destination !== endpoints.sloUrl) {
    throw new SsogateError(
      'saml_destination_mismatch',
      `the ${read.kind} is for ${excerpt(read.destination ?? 'no Destination', 200)}`,
    );
  }
}

/**
 * IdP-initiated logout (SAML Profiles §4.4.4.1 as the service provider
 * receives it): signed by the identity provider, fresh, new, and naming
 * the user; then every session of that NameID from this entry ends (of
 * those SessionIndexes, when it names any), raised as `saml_logout`, and
 * the LogoutResponse says Success, signed with the entry's key pair when
 * it has one.
 */
async function answerLogoutRequest(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  received: Received,
): Promise<FastifyReply> {
  const { entry, idp, endpoints, message, read } = received;
  checkSender(received, true);
  const now = gateway.clock();
  const skewMs = entry.saml.clockSkewSeconds * 1000;
  const issued = read.issueInstant;
  if (
    issued === undefined ||
    issued > now + skewMs ||
    issued + logoutRequestMaxAgeMs + skewMs < now ||
    (read.notOnOrAfter !== undefined && read.notOnOrAfter + skewMs <= now)
  ) {
    throw new SsogateError(
      'saml_logout_expired',
      'the LogoutRequest was issued too long ago, in the future, or is past its NotOnOrAfter',
    );
  }
  if (read.nameId === undefined || read.nameId === '') {
    throw new SsogateError('saml_logout_invalid', 'the LogoutRequest names no NameID');
  }
  const store = gateway.storage.upstreamSessions;
  const fresh = await store.useOnce(
    sha256Base64url(`saml-logout-received:${idp.entityId}:${read.id}`),
    issued + logoutRequestMaxAgeMs + 2 * skewMs,
  );
  if (!fresh)
    throw new SsogateError('saml_logout_replayed', 'this LogoutRequest was received already');
  const hashes = new Set<string>();
  const sessions = read.sessionIndexes.length === 0 ? [undefined] : read.sessionIndexes;
  for (const sid of sessions) {
    for (const hash of await store.sessionsOf(entry.id, { subject: read.nameId, sid })) {
      hashes.add(hash);
    }
  }
  await endLoggedOutSessions(gateway, [...hashes]);
  await audit(gateway, request, {
    kind: 'sign_out',
    outcome: 'success',
    entryId: entry.id,
    userId: null,
    detail: { channel: 'saml', sessionsEnded: hashes.size },
  });
  if (idp.logout === undefined) {
    // Nowhere to answer: the metadata names no SingleLogoutService.
    return reply.redirect('/_sso/signed-out', 302);
  }
  const xml = logoutResponseXml(
    {
      id: `_${Buffer.from(gateway.random(20)).toString('hex')}`,
      issueInstant: now,
      destination: idp.logout.responseUrl,
      issuer: endpoints.spEntityId,
    },
    { inResponseTo: read.id, status: statusSuccess },
  );
  return reply.redirect(
    await redirectUrl(
      idp.logout.responseUrl,
      'SAMLResponse',
      xml,
      message.relayState,
      entry.saml.decryption?.privateKey,
    ),
    302,
  );
}

/**
 * The answer to the gateway's own LogoutRequest (sp-logout.ts): its
 * signature checked when it has one, its InResponseTo a request the gateway
 * sent for this entry and not answered yet. The gateway's session ended
 * before the request left; a status other than Success means the identity
 * provider's did not, and the signed-out page says the user is signed out
 * here only.
 */
async function takeLogoutResponse(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  received: Received,
): Promise<FastifyReply> {
  const { entry, read } = received;
  checkSender(received, false);
  const answered =
    read.inResponseTo !== undefined &&
    (await gateway.storage.upstreamSessions.takeOnce(
      sha256Base64url(sentLogoutRequestKey(entry.id, read.inResponseTo)),
    ));
  if (!answered) {
    throw new SsogateError(
      'saml_in_response_to_mismatch',
      `the LogoutResponse answers no LogoutRequest sent in the last ${logoutAnswerWindowMs / 60_000} minutes, or one answered already`,
    );
  }
  if (read.status !== statusSuccess) {
    request.log.warn(
      { code: 'saml_status', entryId: entry.id },
      `the identity provider answered the LogoutRequest with ${excerpt(read.status ?? 'no status', 200)}`,
    );
    return reply.redirect('/_sso/signed-out?scope=here', 302);
  }
  return reply.redirect('/_sso/signed-out', 302);
}

/**
 * Ends the sessions the identity provider logged out, as the OpenID
 * Connect logouts end theirs (sessions/end-sign-ins.ts, a feature of this
 * layer, so not imported): in storage, which every instance reads, with
 * what the sign-in kept, each raised once as `saml_logout`.
 */
async function endLoggedOutSessions(gateway: Gateway, hashes: readonly string[]): Promise<void> {
  for (const hash of hashes) {
    await gateway.storage.sessions.delete(hash);
    await gateway.storage.upstreamSessions.delete(hash);
    await gateway.signInEnds.raise({ ended: { signInHash: hash }, reason: 'saml_logout' });
  }
}
