import { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import type { ApiRouter } from './api-router.js';
import { presentUser } from './presenters.js';
import { userAnswer, userPageAnswer } from './response-schemas.js';
import { userIdParams, userListQuery } from './schemas.js';

/** Users (docs/admin-api.md#users): list and search, read. Changes are in user-admin-routes.ts. */
export function userRoutes(api: ApiRouter): void {
  const users = api.gateway.storage.users;

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/users',
      tag: 'users',
      summary: 'Users, oldest first, searched by userId, name or email, with `total`',
      query: userListQuery,
      responses: { 200: { description: 'one page of users', schema: userPageAnswer } },
    },
    async ({ query: { search, limit, offset } }) => {
      const page = await users.list({ ...(search === undefined ? {} : { search }), limit, offset });
      return { body: { users: page.users.map(presentUser), total: page.total } };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/users/:id',
      tag: 'users',
      summary: 'One user',
      params: userIdParams,
      responses: { 200: { description: 'the user', schema: userAnswer } },
      errors: [404],
    },
    async ({ params: { id } }) => ({
      body: { user: presentUser(await storedUser(api.gateway, id)) },
    }),
  );
}

/** The stored user, or not_found. */
export async function storedUser(gateway: Gateway, id: number): Promise<UserRecord> {
  const user = await gateway.storage.users.get(id);
  if (user === undefined) throw new SsogateError('not_found', `no user ${id}`);
  return user;
}
