import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * The GET style: every call is a GET with its parameters in the query, and
 * the user-info answer holds the user under `user` (the "empty" parsing case).
 */
export function registerGetStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/get/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'appid', standard: false });
    return reply;
  });

  app.get('/get/token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    const appid = field(request.query, 'appid') ?? '';
    if (!state.authenticateClient(appid, field(request.query, 'secret'))) {
      return reply.code(400).send({ error: 'invalid_client' });
    }
    const code = field(request.query, 'code');
    const check = state.redeemCode(code, appid, field(request.query, 'redirect_uri'));
    if (!check.ok) return reply.code(400).send({ error: 'invalid_grant' });
    return reply.header('cache-control', 'no-store').send({
      access_token: state.issueToken(appid, check.user),
      token_type: 'bearer',
      expires_in: tokenLifetimeSeconds,
    });
  });

  app.get('/get/userinfo', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = context.state.tokenUser(field(request.query, 'access_token'));
    if (issued === undefined) {
      return reply.code(401).send({ errorcode: 40001, errmsg: 'invalid access_token' });
    }
    const { user } = issued;
    return reply.send({
      errorcode: 0,
      user: {
        userId: user.userId,
        userName: user.name,
        enabled: user.enabled ?? true,
        email: user.email,
        department: user.department,
      },
    });
  });
}
