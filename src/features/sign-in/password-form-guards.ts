import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { loginFormToken, readCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { checkLocalSignIn } from '../rate-limit/failure-limit.js';

/**
 * The policies of a posted password form, the chooser's local sign-in and
 * an LDAP entry's form alike: its form token (CSRF), then the limit on
 * failed passwords.
 */

/**
 * The browser's binding when the form's token is the one of its binding
 * cookie; else the `csrf_failed` page is sent, and undefined.
 */
export function formBinding(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  csrf: unknown,
  tryAgainHref: string,
): string | undefined {
  const binding = readCookie(gateway, request, 'binding');
  if (binding === undefined || csrf !== loginFormToken(binding)) {
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError('csrf_failed', 'the sign-in form token does not match'),
      { as: 'page', tryAgainHref },
    );
    return undefined;
  }
  return binding;
}

interface FailureLimitCheck {
  /** What failures count under (rate-limit/failure-limit.ts), with the client's address. */
  readonly account: string;
  /** The user the refusal's audit event names: the typed username. */
  readonly userId: string;
  /** The entry the refusal's audit event names, for an entry's form. */
  readonly entryId?: string;
  readonly tryAgainHref: string;
}

/**
 * The limit on failed passwords of the client's address for the account
 * (rate-limit/failure-limit.ts): while it must wait, the post is refused
 * (the page sent) and audited, and this resolves false.
 */
export async function withinFailureLimit(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  check: FailureLimitCheck,
): Promise<boolean> {
  const limits = { store: gateway.storage.failureCounts, clock: gateway.clock };
  try {
    await checkLocalSignIn(limits, request.ip, check.account);
    return true;
  } catch (error) {
    // rate_limited; or service_unavailable when the limit's store is down.
    const { code, reference } = sendFailure(gateway, request, reply, error, {
      as: 'page',
      tryAgainHref: check.tryAgainHref,
    });
    await audit(gateway, request, {
      kind: 'sign_in',
      outcome: 'failure',
      ...(check.entryId === undefined ? {} : { entryId: check.entryId }),
      userId: check.userId,
      code,
      reference,
    });
    return false;
  }
}
