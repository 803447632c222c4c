import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../core/index.js';
import { audit } from '../app/audit.js';
import type { Gateway } from '../app/gateway.js';
import type { UserRecord } from '../storage/types.js';
import { parseInput } from './api-failure.js';
import type { ApiCall } from './api-route.js';
import { apiHandler } from './api-route.js';
import { presentUser } from './presenters.js';
import { userIdParams, userListQuery } from './schemas.js';

/** Users (SPEC 5, 9): list and search, read, enable and disable. */
export function userRoutes(app: FastifyInstance, gateway: Gateway): void {
  const users = gateway.storage.users;

  const stored = async (id: number): Promise<UserRecord> => {
    const user = await users.get(id);
    if (user === undefined) throw new SsogateError('not_found', `no user ${id}`);
    return user;
  };

  app.get(
    '/_sso/api/users',
    apiHandler(gateway, async ({ request }) => {
      const { search, limit, offset } = parseInput(userListQuery, request.query, 'query');
      const page = await users.list({ ...(search === undefined ? {} : { search }), limit, offset });
      return { body: { users: page.users.map(presentUser), total: page.total } };
    }),
  );

  app.get(
    '/_sso/api/users/:id',
    apiHandler(gateway, async ({ request }) => {
      const { id } = parseInput(userIdParams, request.params, 'path');
      return { body: { user: presentUser(await stored(id)) } };
    }),
  );

  const setEnabled = async (call: ApiCall, enabled: boolean) => {
    const { id } = parseInput(userIdParams, call.request.params, 'path');
    const user = await stored(id);
    if (!(await users.setEnabled(id, enabled, gateway.clock()))) {
      throw new SsogateError('not_found', `no user ${id}`);
    }
    // A disabled user is refused at the next request anyway (resolveSession
    // checks `enabled`); ending the sessions now also frees their rows.
    const sessionsEnded = enabled ? 0 : await gateway.storage.sessions.deleteForUser(id);
    await audit(gateway, call.request, {
      kind: 'user_change',
      outcome: 'success',
      userId: user.userId,
      actor: call.admin.actor,
      detail: { action: enabled ? 'enable' : 'disable', sessionsEnded },
    });
    return { body: { user: presentUser(await stored(id)) } };
  };

  app.post(
    '/_sso/api/users/:id/enable',
    apiHandler(gateway, (call) => setEnabled(call, true)),
  );
  app.post(
    '/_sso/api/users/:id/disable',
    apiHandler(gateway, (call) => setEnabled(call, false)),
  );
}
