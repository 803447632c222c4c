import type { JsonValue } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import type { ApiRouter } from './api-router.js';
import type { ApiCall } from './api-route.js';
import { presentUser } from './presenters.js';
import { sessionsEndedAnswer, userAnswer } from './response-schemas.js';
import { userIdParams } from './schemas.js';
import { storedUser } from './user-routes.js';
import { endSignInsOf } from '../sessions/end-sign-ins.js';

type UserAction =
  'enable' | 'disable' | 'lock' | 'unlock' | 'grant_admin' | 'revoke_admin' | 'end_sessions';

/**
 * What an administrator does to a user (docs/admin-api.md#users). A lock is `enabled:
 * false` set here, which no sign-in lifts; `lock`/`unlock` are the console's
 * names for the older `disable`/`enable`, which stay. No change may leave
 * the gateway without an enabled administrator, and an administrator at the
 * console cannot lock themselves out (409 last_admin, self_lockout).
 */
export function userAdminRoutes(api: ApiRouter): void {
  const { gateway } = api;
  const users = gateway.storage.users;

  const recorded = async (
    call: ApiCall,
    user: UserRecord,
    action: UserAction,
    detail: Readonly<Record<string, JsonValue>> = {},
  ) => {
    await audit(gateway, call.request, {
      kind: 'user_change',
      outcome: 'success',
      userId: user.userId,
      actor: call.admin.actor,
      detail: { action, ...detail },
    });
  };

  /** Refuses a change of one's own account that would shut oneself out. */
  const notSelf = (call: ApiCall, user: UserRecord, what: string) => {
    if (call.admin.via === 'session' && call.admin.actor === user.userId) {
      throw new SsogateError('self_lockout', `you cannot ${what} your own account`);
    }
  };

  const removeAccess = async (id: number, change: 'disable' | 'revoke_admin') => {
    const result = await users.removeAdminAccess(id, change, gateway.clock());
    if (result === 'not_found') throw new SsogateError('not_found', `no user ${id}`);
    if (result === 'last_admin') {
      throw new SsogateError(
        'last_admin',
        'this is the last enabled administrator; grant another user administrator rights first',
      );
    }
  };

  const userRoute = (
    action: UserAction,
    summary: string,
    run: (call: ApiCall, user: UserRecord) => Promise<Readonly<Record<string, JsonValue>>>,
  ) => {
    api.route(
      {
        method: 'POST',
        url: `/_sso/api/users/:id/${action.replace('_', '-')}`,
        tag: 'users',
        summary,
        params: userIdParams,
        responses: { 200: { description: 'the user as it is now', schema: userAnswer } },
        errors:
          action === 'enable' || action === 'unlock' || action === 'grant_admin'
            ? [404]
            : [404, 409],
      },
      async (call) => {
        const user = await storedUser(gateway, call.params.id);
        const detail = await run(call, user);
        await recorded(call, user, action, detail);
        return { body: { user: presentUser(await storedUser(gateway, user.id)) } };
      },
    );
  };

  const enable = async (_call: ApiCall, user: UserRecord) => {
    if (!(await users.setEnabled(user.id, true, gateway.clock()))) {
      throw new SsogateError('not_found', `no user ${user.id}`);
    }
    return {};
  };
  const disable = async (call: ApiCall, user: UserRecord) => {
    notSelf(call, user, 'lock');
    await removeAccess(user.id, 'disable');
    // A disabled user is refused at the next request anyway (resolveSession
    // checks `enabled`); ending the sessions now also frees their rows.
    return {
      sessionsEnded: await endSignInsOf(gateway, { userRowId: user.id }, 'user_locked'),
    };
  };

  userRoute('enable', 'Enable a user (the same as unlock)', enable);
  userRoute('disable', "Disable a user (the same as lock); ends the user's sessions", disable);
  userRoute('unlock', 'Unlock a user', enable);
  userRoute('lock', "Lock a user: no sign-in lifts it; ends the user's sessions", disable);
  userRoute('grant_admin', 'Make a user an administrator', async (_call, user) => {
    if (!(await users.setAdmin(user.id, true, gateway.clock()))) {
      throw new SsogateError('not_found', `no user ${user.id}`);
    }
    return {};
  });
  userRoute('revoke_admin', "Take a user's administrator rights away", async (call, user) => {
    notSelf(call, user, 'revoke administrator rights from');
    await removeAccess(user.id, 'revoke_admin');
    return {};
  });

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/users/:id/end-sessions',
      tag: 'users',
      summary: 'Sign a user out everywhere: end all of their sessions',
      params: userIdParams,
      responses: { 200: { description: 'how many sessions ended', schema: sessionsEndedAnswer } },
      errors: [404],
    },
    async (call) => {
      const user = await storedUser(gateway, call.params.id);
      const sessionsEnded = await endSignInsOf(
        gateway,
        { userRowId: user.id },
        'ended_by_administrator',
      );
      await recorded(call, user, 'end_sessions', { sessionsEnded });
      return { body: { sessionsEnded } };
    },
  );
}
