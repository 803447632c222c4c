import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { passkeyPage } from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';
import type { RequestSession } from '../sessions/request-session.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import type { Gateway } from './factor-gateway.js';
import {
  enrolHref,
  factorHref,
  factorReturnTo,
  passkeyEnrolHref,
  passkeyEnrolPath,
  passkeyPath,
  secondFactorPath,
} from './factor-paths.js';
import type { Form } from './factor-steps.js';
import {
  acceptFactor,
  factorName,
  factorRecent,
  finishEnrolment,
  formSession,
  refuseCode,
  signInTooOldToEnrol,
  underLimit,
} from './factor-steps.js';
import {
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
  WebauthnError,
} from './webauthn.js';

/**
 * The passkey pages beside the one-time code's (routes.ts), on the auth host:
 * - GET /_sso/factor/passkey/enrol: makes a passkey, on the same terms as
 *   an authenticator's enrolment (a fresh sign-in for the first factor, a
 *   recent factor for another);
 * - POST /_sso/factor/passkey/enrol: its registration answer;
 * - POST /_sso/factor/passkey: an assertion, then back to `return_to`
 *   (GET /_sso/factor shows the passkey page to a user who holds one).
 * A refused answer counts toward the limit on wrong codes, and is audited
 * with its code (docs/errors.md#second-factor).
 */
export function passkeyPages(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Querystring: Form }>(passkeyEnrolPath, async (request, reply) => {
    const returnTo = factorReturnTo(request.query.return_to);
    const active = await sessionOf(gateway, request);
    if (active === undefined) return sendToSignIn(gateway, request, reply, factorHref(returnTo));
    const factors = await gateway.storage.secondFactors.list(active.user.id);
    const here = passkeyEnrolHref(returnTo);
    if (factors.length > 0 && !factorRecent(gateway, active))
      return reply.redirect(factorHref(here), 302);
    if (factors.length === 0 && signInTooOldToEnrol(gateway, active))
      return sendToSignIn(gateway, request, reply, here);
    const options = await registrationOptions(gateway, active.session.idHash, active.user);
    return sendPasskeyPage(gateway, request, reply, active, {
      mode: 'register',
      action: passkeyEnrolPath,
      returnTo,
      options,
      otherHref: enrolHref(returnTo),
    });
  });

  app.post<{ Body: Form | undefined }>(passkeyEnrolPath, async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = factorReturnTo(form.return_to);
    const active = await formSession(gateway, request, reply, returnTo);
    if (active === undefined) return reply;
    if (!(await underLimit(gateway, request, reply, active, returnTo))) return reply;
    const name = factorName(form.name, 'Passkey');
    let passkey;
    try {
      passkey = await checkRegistration(
        gateway,
        active.session.idHash,
        active.user,
        form.response,
        name,
      );
    } catch (error) {
      return refuse(gateway, request, reply, active, returnTo, error);
    }
    const { secondFactors, passkeys } = gateway.storage;
    const first = (await secondFactors.list(active.user.id)).length === 0;
    const now = gateway.clock();
    await passkeys.add(passkey, now);
    return finishEnrolment(gateway, request, reply, active, {
      returnTo,
      first,
      method: 'webauthn',
      detail: { factorId: passkey.factorId, name, method: 'webauthn' },
      now,
    });
  });

  app.post<{ Body: Form | undefined }>(passkeyPath, async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = factorReturnTo(form.return_to);
    const active = await formSession(gateway, request, reply, returnTo);
    if (active === undefined) return reply;
    if (!(await underLimit(gateway, request, reply, active, returnTo))) return reply;
    try {
      await checkAssertion(gateway, active.session.idHash, active.user, form.response);
    } catch (error) {
      return refuse(gateway, request, reply, active, returnTo, error);
    }
    await acceptFactor(gateway, request, active, 'webauthn');
    return reply.redirect(returnTo, 303);
  });
}

/** A refused ceremony: counted toward the limit and audited with its code, then its error page. */
async function refuse(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
  error: unknown,
): Promise<FastifyReply> {
  if (!(error instanceof WebauthnError)) throw error;
  await refuseCode(gateway, request, active, error.code);
  sendFailure(gateway, request, reply, error, { as: 'page', tryAgainHref: factorHref(returnTo) });
  return reply;
}

/** GET /_sso/factor for a user who holds a passkey: the assertion's page. */
export async function renderPasskeyVerify(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
): Promise<FastifyReply> {
  const options = await authenticationOptions(gateway, active.session.idHash, active.user.id);
  return sendPasskeyPage(gateway, request, reply, active, {
    mode: 'authenticate',
    action: passkeyPath,
    returnTo,
    options,
    otherHref: `${secondFactorPath}?method=code&return_to=${encodeURIComponent(returnTo)}`,
  });
}

/** The page with its script allowed by a nonce fresh for each answer (as form-post-response.ts). */
function sendPasskeyPage(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  input: {
    readonly mode: 'register' | 'authenticate';
    readonly action: string;
    readonly returnTo: string;
    readonly options: unknown;
    readonly otherHref: string;
  },
): FastifyReply {
  const scriptNonce = Buffer.from(gateway.random(16)).toString('base64url');
  const policy = securityHeaders({ https: gateway.config.secureCookies, scriptNonce })[
    'Content-Security-Policy'
  ];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
  void reply.header('cache-control', 'no-store');
  return sendPage(
    reply,
    200,
    passkeyPage({
      ...input,
      csrfToken: csrfTokenFor(active.id),
      scriptNonce,
      page: pageContext(gateway, request),
    }),
  );
}
