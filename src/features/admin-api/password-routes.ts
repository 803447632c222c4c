import { z } from 'zod';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { hashPassword, verifyPassword } from '../local-accounts/password-hash.js';
import {
  checkLocalSignIn,
  recordLocalSignInFailure,
  recordLocalSignInSuccess,
} from '../rate-limit/failure-limit.js';
import { consoleSessionOf } from '../sessions/console-session.js';
import type { ApiRouter } from './api-router.js';
import { sessionsEndedAnswer } from './response-schemas.js';
import { endSignInsOf } from '../sessions/end-sign-ins.js';

/** The same bounds as SSOGATE_ADMIN_PASSWORD (docs/configuration.md) and the sign-in form. */
const passwordLength = { min: 12, max: 1024 } as const;

const passwordChangeBody = z.strictObject({
  currentPassword: z.string().max(passwordLength.max, 'is too long'),
  newPassword: z.string(),
});

/** A refused new password; the reason is the administrator's own input described back. */
class WeakPasswordError extends SsogateError<'password_weak'> {
  constructor(reason: string) {
    super('password_weak', reason, { field: 'newPassword' });
  }

  override get publicDetail(): string {
    return this.message;
  }
}

/**
 * Why a new password is refused, or undefined when it is acceptable: long
 * enough to resist guessing, not the password it replaces, and not built on
 * the account's own name (the first thing an attacker tries).
 */
export function weakPasswordReason(
  newPassword: string,
  currentPassword: string,
  userId: string,
): string | undefined {
  const length = Array.from(newPassword.normalize('NFKC')).length;
  if (length < passwordLength.min) return `must be at least ${passwordLength.min} characters`;
  if (length > passwordLength.max) return `must be at most ${passwordLength.max} characters`;
  if (newPassword === currentPassword) return 'must differ from the current password';
  if (newPassword.toLowerCase().includes(userId.toLowerCase())) {
    return 'must not contain the user id';
  }
  return undefined;
}

/**
 * The signed-in administrator changes their own local password
 * (docs/admin-api.md#your-own-account). The current password is checked as
 * a sign-in is, with the same rate limit, so a session left open does not
 * let its finder guess it. Every other session of the account ends: whoever
 * knew the old password is signed out; the session making the change stays.
 */
export function passwordRoutes(api: ApiRouter): void {
  const { gateway } = api;
  api.route(
    {
      method: 'POST',
      url: '/_sso/api/me/password',
      tag: 'users',
      summary: "Change the signed-in local account's password; ends its other sessions",
      description:
        'Only with the session cookie (and X-CSRF-Token) of a local account: an API token has no password. ' +
        'A wrong `currentPassword` is `403 password_wrong` and counts as a failed sign-in; ' +
        'a new password shorter than 12 characters, the current one, or containing the user id is `400 password_weak`.',
      body: passwordChangeBody,
      responses: {
        200: {
          description: "how many of the account's other sessions ended",
          schema: sessionsEndedAnswer,
        },
      },
      errors: [409, 429],
    },
    async ({ request, admin, body }) => {
      const active = admin.via === 'session' ? await consoleSessionOf(gateway, request) : undefined;
      const user = active?.user;
      if (active === undefined || user?.passwordHash == null || user.sourceEntryId !== null) {
        throw new SsogateError(
          'password_not_local',
          'only the session of a local account can change its password',
        );
      }
      const limits = { store: gateway.storage.failureCounts, clock: gateway.clock };
      await checkLocalSignIn(limits, request.ip, user.userId);
      if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
        await recordLocalSignInFailure(limits, request.ip, user.userId);
        await audit(gateway, request, {
          kind: 'user_change',
          outcome: 'failure',
          userId: user.userId,
          actor: admin.actor,
          code: 'password_wrong',
          detail: { action: 'change_password' },
        });
        throw new SsogateError('password_wrong', 'the current password is not right', {
          field: 'currentPassword',
        });
      }
      await recordLocalSignInSuccess(limits, request.ip, user.userId);
      const weak = weakPasswordReason(body.newPassword, body.currentPassword, user.userId);
      if (weak !== undefined) {
        throw new WeakPasswordError(`the new password ${weak}`);
      }
      await gateway.storage.users.setPasswordHash(
        user.id,
        await hashPassword(body.newPassword),
        gateway.clock(),
      );
      // The store ends a user's sessions all at once; the one making the change
      // is written back as it was, so the console stays signed in with its token,
      // and with it the sign-in it belongs to under a cookie domain (console-session.ts).
      const { signInHash } = active.session;
      const signIn =
        signInHash === undefined ? undefined : await gateway.storage.sessions.get(signInHash);
      const ended = await endSignInsOf(gateway, { userRowId: user.id }, 'user_signed_out');
      const kept = signIn === undefined ? [active.session] : [signIn, active.session];
      for (const session of kept) await gateway.storage.sessions.create(session);
      const sessionsEnded = Math.max(0, ended - kept.length);
      await audit(gateway, request, {
        kind: 'user_change',
        outcome: 'success',
        userId: user.userId,
        actor: admin.actor,
        detail: { action: 'change_password', sessionsEnded },
      });
      return { body: { sessionsEnded } };
    },
  );
}
