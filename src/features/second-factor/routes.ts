import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import {
  enrolFactorPage,
  factorListPage,
  pageMessages,
  recoveryCodesPage,
  verifyFactorPage,
} from '../../foundation/pages/index.js';
import type { RequestSession } from '../sessions/request-session.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import type { Gateway } from './factor-gateway.js';
import { allowFactorFormRedirects } from './factor-form-policy.js';
import { checkFactorLimit, recordFactorFailure, recordFactorSuccess } from './factor-limit.js';
import {
  enrolHref,
  enrolPath,
  factorHref,
  factorReturnTo,
  factorsPath,
  passkeyEnrolPath,
  secondFactorPath,
} from './factor-paths.js';
import { passkeyPages, renderPasskeyVerify } from './passkey-routes.js';
import { base32Decode, base32Encode, matchingStep, otpauthUri } from './totp.js';

/** Enrolment needs a first factor this fresh: a sign-in of the last ten minutes. */
export const freshSignInMs = 10 * 60_000;
/** Adding to factors one holds, or removing the last, needs a second factor this recent. */
const recentFactorMs = 15 * 60_000;
export const recoveryCodeCount = 10;

type Form = Readonly<Record<string, unknown>>;
type FormRequest = FastifyRequest<{ Body: Form | undefined }>;

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
    const name =
      typeof form.name === 'string' && form.name.trim() !== ''
        ? form.name.trim().slice(0, 64)
        : 'Authenticator';
    const factorId = randomUUID();
    await secondFactors.addTotp({
      factorId,
      userRowId: active.user.id,
      name,
      secret: pending,
      lastStep: step,
      createdAt: now,
    });
    await audit(gateway, request, {
      kind: 'second_factor',
      outcome: 'success',
      userId: active.user.userId,
      detail: { action: 'enrol', factorId, name },
    });
    gateway.telemetry.secondFactor('enrol', 'success');
    await acceptFactor(gateway, request, active, 'totp');
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
      await audit(gateway, request, {
        kind: 'second_factor',
        outcome: 'success',
        userId: active.user.userId,
        detail: { action: 'remove', factorId },
      });
      gateway.telemetry.secondFactor('remove', 'success');
      if (factors.length === 1)
        await secondFactors.replaceRecoveryCodes(active.user.id, [], gateway.clock());
    }
    return reply.redirect(factorsPath, 303);
  });
}

/** Whether the session's sign-in holds a second factor of the last 15 minutes. */
export function factorRecent(gateway: Gateway, active: RequestSession): boolean {
  const given = active.session.factor;
  return given !== undefined && gateway.clock() - given.at <= recentFactorMs;
}

/** A recovery code: 10 random base32 characters, in two groups (50 bits). */
export function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * The session of a posted form, whose token must be that session's
 * (csrfTokenFor): else `csrf_failed`, or, without a session, `unauthenticated`.
 */
export async function formSession(
  gateway: Gateway,
  request: FormRequest,
  reply: FastifyReply,
  returnTo: string,
): Promise<RequestSession | undefined> {
  const active = await sessionOf(gateway, request);
  const csrf = (request.body ?? {}).csrf;
  if (active !== undefined && csrf === csrfTokenFor(active.id)) return active;
  const error =
    active === undefined
      ? new SsogateError('unauthenticated', 'no session')
      : new SsogateError('csrf_failed', 'the second-factor form token does not match');
  sendFailure(gateway, request, reply, error, { as: 'page', tryAgainHref: factorHref(returnTo) });
  return undefined;
}

export async function underLimit(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: RequestSession,
  returnTo: string,
): Promise<boolean> {
  const deps = { store: gateway.storage.failureCounts, clock: gateway.clock };
  try {
    await checkFactorLimit(deps, request.ip, active.user.id);
    return true;
  } catch (error) {
    const { code, reference } = sendFailure(gateway, request, reply, error, {
      as: 'page',
      tryAgainHref: factorHref(returnTo),
    });
    await audit(gateway, request, {
      kind: 'second_factor',
      outcome: 'failure',
      userId: active.user.userId,
      code,
      reference,
    });
    gateway.telemetry.secondFactor('verify', code);
    return false;
  }
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

export async function refuseCode(
  gateway: Gateway,
  request: FastifyRequest,
  active: RequestSession,
  code = 'second_factor_invalid',
): Promise<void> {
  const deps = { store: gateway.storage.failureCounts, clock: gateway.clock };
  await recordFactorFailure(deps, request.ip, active.user.id);
  await audit(gateway, request, {
    kind: 'second_factor',
    outcome: 'failure',
    userId: active.user.userId,
    code,
  });
  gateway.telemetry.secondFactor('verify', code);
}

/** Records the factor on the sign-in's session (and its hosts'), clears the failures, audits. */
export async function acceptFactor(
  gateway: Gateway,
  request: FastifyRequest,
  active: RequestSession,
  method: string,
): Promise<void> {
  const { session } = active;
  const signIn = { idHash: session.signInHash ?? session.idHash, userRowId: session.userRowId };
  await gateway.storage.sessions.recordFactor(signIn, { method, at: gateway.clock() });
  const deps = { store: gateway.storage.failureCounts, clock: gateway.clock };
  await recordFactorSuccess(deps, request.ip, active.user.id);
  await audit(gateway, request, {
    kind: 'second_factor',
    outcome: 'success',
    userId: active.user.userId,
    detail: { action: 'verify', method },
  });
  gateway.telemetry.secondFactor('verify', 'success');
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
  if (
    gateway.clock() - active.session.createdAt > freshSignInMs &&
    active.session.signInHash === undefined
  )
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
  await allowFactorFormRedirects(gateway, reply);
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
      passkeyHref: `${passkeyEnrolPath}?return_to=${encodeURIComponent(returnTo)}`,
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
  await allowFactorFormRedirects(gateway, reply);
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
      addPasskeyHref: `${passkeyEnrolPath}?return_to=${encodeURIComponent(factorsPath)}`,
      page: pageContext(gateway, request),
    }),
  );
}
