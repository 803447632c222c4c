import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import { bearerUser } from './bearer.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * Feishu / Lark web sign-in (open.feishu.cn, 网页应用免登): the page
 * `/open-apis/authen/v1/authorize?app_id`; `POST
 * /open-apis/authen/v2/oauth/token` with a JSON body answering `{"code": 0,
 * "access_token", ...}`, a bad code refused as `{"code": 20003, "error":
 * "invalid_grant"}`; `GET /open-apis/authen/v1/user_info` with a Bearer
 * token, `{"code": 0, "data": {...}}`, a refusal a non-zero `code` with `msg`.
 */
export function registerFeishuStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/feishu/open-apis/authen/v1/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'app_id', standard: false });
    return reply;
  });

  app.post('/feishu/open-apis/authen/v2/oauth/token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const body = request.body;
    const clientId = field(body, 'client_id') ?? '';
    if (!context.state.authenticateClient(clientId, field(body, 'client_secret'))) {
      return reply.code(400).send({
        code: 20002,
        error: 'invalid_client',
        error_description: 'The client secret is invalid.',
      });
    }
    const check = context.state.redeemCode(
      field(body, 'code'),
      clientId,
      field(body, 'redirect_uri'),
    );
    if (!check.ok) {
      return reply.code(400).send({
        code: 20003,
        error: 'invalid_grant',
        error_description: 'The authorization code is not found.',
      });
    }
    return reply.send({
      code: 0,
      access_token: `u-${context.state.issueToken(clientId, check.user)}`,
      expires_in: tokenLifetimeSeconds,
      token_type: 'Bearer',
      scope: '',
    });
  });

  app.get('/feishu/open-apis/authen/v1/user_info', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = bearerUser(request, context, 'u-');
    if (issued === undefined) {
      return reply
        .code(400)
        .send({ code: 99991668, msg: 'Invalid access token for authorization.' });
    }
    const { user } = issued;
    return reply.send({
      code: 0,
      msg: 'success',
      data: {
        name: user.name,
        en_name: user.name,
        open_id: `ou_${context.state.openid(issued.appid, user)}`,
        union_id: `on_${user.userId}`,
        email: user.email,
        user_id: user.userId,
        tenant_key: 'example-tenant',
      },
    });
  });
}
