import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../../foundation/http/audit.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { passkeyPage, recoveryCodesPage } from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';
import type { RequestSession } from '../sessions/request-session.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import type { Gateway } from './factor-gateway.js';
import {
  factorHref,
  factorReturnTo,
  passkeyEnrolPath,
  passkeyPath,
  secondFactorPath,
} from './factor-paths.js';
import {
  acceptFactor,
  factorRecent,
  formSession,
  freshSignInMs,
  newRecoveryCode,
  recoveryCodeCount,
  refuseCode,
  underLimit,
} from './routes.js';
import {
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
  WebauthnError,
} from './webauthn.js';

type Form = Readonly<Record<string, unknown>>;

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
    const here = `${passkeyEnrolPath}?return_to=${encodeURIComponent(returnTo)}`;
    if (factors.length > 0 && !factorRecent(gateway, active))
      return reply.redirect(factorHref(here), 302);
    if (
      factors.length === 0 &&
      gateway.clock() - active.session.createdAt > freshSignInMs &&
      active.session.signInHash === undefined
    )
      return sendToSignIn(gateway, request, reply, here);
    const options = await registrationOptions(gateway, active.session.idHash, active.user);
    return sendPasskeyPage(gateway, request, reply, active, {
      mode: 'register',
      action: passkeyEnrolPath,
      returnTo,
      options,
      otherHref: `${secondFactorPath}/enrol?return_to=${encodeURIComponent(returnTo)}`,
    });
  });

  app.post<{ Body: Form | undefined }>(passkeyEnrolPath, async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = factorReturnTo(form.return_to);
    const active = await formSession(gateway, request, reply, returnTo);
    if (active === undefined) return reply;
    if (!(await underLimit(gateway, request, reply, active, returnTo))) return reply;
    const name =
      typeof form.name === 'string' && form.name.trim() !== ''
        ? form.name.trim().slice(0, 64)
        : 'Passkey';
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
    await audit(gateway, request, {
      kind: 'second_factor',
      outcome: 'success',
      userId: active.user.userId,
      detail: { action: 'enrol', factorId: passkey.factorId, name, method: 'webauthn' },
    });
    gateway.telemetry.secondFactor('enrol', 'success');
    await acceptFactor(gateway, request, active, 'webauthn');
    if (!first) return reply.redirect(returnTo, 303);
    const codes = Array.from({ length: recoveryCodeCount }, () => newRecoveryCode());
    await secondFactors.replaceRecoveryCodes(active.user.id, codes, now);
    void reply.header('cache-control', 'no-store');
    return sendPage(
      reply,
      200,
      recoveryCodesPage({ codes, returnTo, page: pageContext(gateway, request) }),
    );
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
