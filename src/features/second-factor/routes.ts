import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import {
  enrolFactorPage,
  factorListPage,
  pageMessages,
  verifyFactorPage,
} from '../../foundation/pages/index.js';
import type { RequestSession } from '../sessions/request-session.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { allowSignInFormRedirects } from '../sign-in/application-origins.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import type { Gateway } from './factor-gateway.js';
import {
  enrolHref,
  enrolPath,
  factorHref,
  factorReturnTo,
  factorsPath,
  passkeyEnrolHref,
  secondFactorPath,
} from './factor-paths.js';
import type { Form } from './factor-steps.js';
import {
  acceptFactor,
  factorName,
  factorRecent,
  finishEnrolment,
  formSession,
  freshSignInMs,
  recordFactorEvent,
  refuseCode,
  signInTooOldToEnrol,
  underLimit,
} from './factor-steps.js';
import { passkeyPages, renderPasskeyVerify } from './passkey-routes.js';
import { base32Decode, base32Encode, matchingStep, otpauthUri } from './totp.js';

/**
 * The second factor's pages, on the auth host only (the session whose
 * factor counts is the sign-in's own; a host's session is updated with it):
 * - GET /_sso/factor: asks for a code, or, for a user without a factor,
 *   enrols an authenticator (with a sign-in of the last ten minutes);
 * - POST /_sso/factor: a code or a recovery code, then back to `return_to`;
 * - POST /_sso/factor/enrol: the first code of a new authenticator;
 * - GET /_sso/factors, POST /_sso/factors/remove: the user's own list.
 * Every post carries the session's form token; every wrong code counts
 * toward the limit (factor-limit.ts) and is audited.
 */
export async function secondFactorRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    authHostOnly(scope, gateway, (routes) => {
      factorPages(routes, gateway);
      passkeyPages(routes, gateway);
    });
  });
}

function factorPages(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Querystring: Form }>(secondFactorPath, async (request, reply) => {
    const returnTo = factorReturnTo(request.query.return_to);
    const active = await sessionOf(gateway, request);
    if (active === undefined) return sendToSignIn(gateway, request, reply, factorHref(returnTo));
    const factors = await gateway.storage.secondFactors.list(active.user.id);
    if (factors.length === 0) return startEnrolment(gateway, request, reply, active, returnTo);
    if (request.query.method !== 'code' && factors.some((factor) => factor.kind === 'webauthn'))
      return renderPasskeyVerify(gateway, request, reply, active, returnTo);
    return renderVerify(gateway, request, reply, active, returnTo, 200);
  });

  app.get<{ Querystring: Form }>(enrolPath, async (request, reply) => {
    const returnTo = factorReturnTo(request.query.return_to);
    const active = await sessionOf(gateway, request);
    if (active === undefined) return sendToSignIn(gateway, request, reply, factorHref(returnTo));
    const factors = await gateway.storage.secondFactors.list(active.user.id);
    // A second authenticator is added by one who holds the first.
    if (factors.length > 0 && !factorRecent(gateway, active))
      return reply.redirect(factorHref(enrolHref(returnTo)), 302);
    return startEnrolment(gateway, request, reply, active, returnTo);
  });

  app.post<{ Body: Form | undefined }>(secondFactorPath, async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = factorReturnTo(form.return_to);
    const active = await formSession(gateway, request, reply, returnTo);
    if (active === undefined) return reply;
    if (!(await underLimit(gateway, request, reply, active, returnTo))) return reply;
    const method = await checkCode(gateway, active, form);
    if (method === undefined) {
      await refuseCode(gateway, request, active);
      return renderVerify(gateway, request, reply, active, returnTo, 401, true);
    }
    await acceptFactor(gateway, request, active, method);
    return reply.redirect(returnTo, 303);
  });

  app.post<{ Body: Form | undefined }>(enrolPath, async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = factorReturnTo(form.return_to);
    const active = await formSession(gateway, request, reply, returnTo);
    if (active === undefined) return reply;
    const pending = openEnrolment(gateway, active, form.enrolment);
    if (pending === undefined) {
      const error = new SsogateError(
        'second_factor_enrolment_invalid',
        'the enrolment form is not this session’s, or has expired',
      );
      sendFailure(gateway, request, reply, error, {
        as: 'page',
        tryAgainHref: factorHref(returnTo),
      });
      return reply;
    }
    if (!(await underLimit(gateway, request, reply, active, returnTo))) return reply;
    const { secondFactors } = gateway.storage;
    const secret = base32Decode(pending) ?? new Uint8Array(0);
    const now = gateway.clock();
    const step = matchingStep(secret, typeof form.code === 'string' ? form.code : '', now);
    if (step === undefined) {
      await refuseCode(gateway, request, active);
      return renderEnrol(gateway, request, reply, active, returnTo, pending, 401, true);
    }
    const first = (await secondFactors.list(active.user.id)).length === 0;
    const name = factorName(form.name, 'Authenticator');
    const factorId = randomUUID();
    await secondFactors.addTotp({
      factorId,
      userRowId: active.user.id,
      name,
      secret: pending,
      lastStep: step,
      createdAt: now,
    });
    return finishEnrolment(gateway, request, reply, active, {
      returnTo,
      first,
      method: 'totp',
      detail: { factorId, name },
      now,
    });
  });

  app.get<{ Querystring: Form }>(factorsPath, async (request, reply) => {
    const active = await sessionOf(gateway, request);
    if (active === undefined) return sendToSignIn(gateway, request, reply, factorsPath);
    return renderList(gateway, request, reply, active, 200);
  });

  app.post<{ Body: Form | undefined }>(`${factorsPath}/remove`, async (request, reply) => {
    const form = request.body ?? {};
    const active = await formSession(gateway, request, reply, factorsPath);
    if (active === undefined) return reply;
    const { secondFactors } = gateway.storage;
    const factors = await secondFactors.list(active.user.id);
    const factorId = typeof form.factor === 'string' ? form.factor : '';
    if (
      factors.length === 1 &&
      factors[0]?.factorId === factorId &&
      !factorRecent(gateway, active)
    ) {
      const error = new SsogateError('second_factor_not_recent', 'removing the last second factor');
      sendFailure(gateway, request, reply, error, {
        as: 'page',
        tryAgainHref: factorHref(factorsPath),
      });
      return reply;
    }
    if (await secondFactors.remove(active.user.id, factorId)) {
      await recordFactorEvent(gateway, request, active, { action: 'remove', detail: { factorId } });
      if (factors.length === 1)
        await secondFactors.replaceRecoveryCodes(active.user.id, [], gateway.clock());
    }
    return reply.redirect(factorsPath, 303);
  });
}

/**
 * The method a posted code proves, if any: a one-time code of one of the
 * user's authenticators whose time step is later than any used before (the
 * one conditional update, SecondFactorStore.useStep), or an unused recovery
 * code, used up by this.
 */
async function checkCode(
  gateway: Gateway,
  active: RequestSession,
  form: Form,
): Promise<string | undefined> {
  const { secondFactors } = gateway.storage;
  const now = gateway.clock();
  if (typeof form.recovery === 'string' && form.recovery.trim() !== '') {
    const code = form.recovery.slice(0, 64);
    return (await secondFactors.useRecoveryCode(active.user.id, code, now))
      ? 'recovery'
      : undefined;
  }
  const code = typeof form.code === 'string' ? form.code.slice(0, 16) : '';
  for (const factor of await secondFactors.totpFactors(active.user.id)) {
    const secret = base32Decode(factor.secret);
    const step = secret === undefined ? undefined : matchingStep(secret, code, now);
    if (step !== undefined && (await secondFactors.useStep(factor.factorId, step, now)))
      return 'totp';
  }
  return undefined;
}

interface PendingEnrolment {
  readonly session: string;
  readonly secret: string;
  readonly expiresAt: number;
}

/** The secret of an enrolment form sealed for this session, still in time. */
function openEnrolment(
  gateway: Gateway,
  active: RequestSession,
  sealed: unknown,
): string | undefined {
  if (typeof sealed !== 'string' || sealed.length > 1024) return undefined;
  const opened = gateway.storage.secondFactors.openPending(sealed);
  if (opened === undefined) return undefined;
  const pending = JSON.parse(opened) as PendingEnrolment;
  if (pending.session !== active.session.idHash || pending.expiresAt < gateway.clock())
    return undefined;
  return pending.secret;
}

/**
 * Enrolment starts with a sign-in of the last ten minutes: an older one
 * signs in again first (and comes back here).
 */
async function startEnrolment(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
): Promise<FastifyReply> {
  if (signInTooOldToEnrol(gateway, active))
    // Back to the enrolment itself: the factor page would ask a user who
    // holds a factor for a code, and never add the authenticator asked for.
    return sendToSignIn(gateway, request, reply, enrolHref(returnTo));
  const secret = base32Encode(randomBytes(20));
  return renderEnrol(gateway, request, reply, active, returnTo, secret, 200);
}

async function renderEnrol(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
  secret: string,
  status: number,
  failed = false,
): Promise<FastifyReply> {
  const page = pageContext(gateway, request);
  // A factor asked on an application host is given here: the post's 303
  // goes back to that host (through the handoff).
  await allowSignInFormRedirects(gateway, reply);
  const pending: PendingEnrolment = {
    session: active.session.idHash,
    secret,
    expiresAt: gateway.clock() + freshSignInMs,
  };
  const issuer = gateway.config.organization.name ?? new URL(gateway.config.publicUrl).host;
  void reply.header('cache-control', 'no-store');
  return sendPage(
    reply,
    status,
    enrolFactorPage({
      action: enrolPath,
      csrfToken: csrfTokenFor(active.id),
      returnTo,
      uri: otpauthUri(issuer, active.user.userId, base32Decode(secret) ?? new Uint8Array(0)),
      secret,
      sealed: gateway.storage.secondFactors.sealPending(JSON.stringify(pending)),
      passkeyHref: passkeyEnrolHref(returnTo),
      page,
      error: failed ? pageMessages(page.language).secondFactor.wrongCode : undefined,
    }),
  );
}

async function renderVerify(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
  status: number,
  failed = false,
): Promise<FastifyReply> {
  const page = pageContext(gateway, request);
  // A factor asked on an application host is given here: the post's 303
  // goes back to that host (through the handoff).
  await allowSignInFormRedirects(gateway, reply);
  return sendPage(
    reply,
    status,
    verifyFactorPage({
      action: secondFactorPath,
      csrfToken: csrfTokenFor(active.id),
      returnTo,
      page,
      error: failed ? pageMessages(page.language).secondFactor.wrongCode : undefined,
    }),
  );
}

async function renderList(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  status: number,
): Promise<FastifyReply> {
  const factors = await gateway.storage.secondFactors.list(active.user.id);
  return sendPage(
    reply,
    status,
    factorListPage({
      csrfToken: csrfTokenFor(active.id),
      returnTo: factorsPath,
      factors,
      removeAction: `${factorsPath}/remove`,
      addHref: enrolHref(factorsPath),
      addPasskeyHref: passkeyEnrolHref(factorsPath),
      page: pageContext(gateway, request),
    }),
  );
}
