import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { answerFault } from './fault-gate.js';

/**
 * The `POST `-JSON shape common to WeChat-like servers: JSON bodies in, and an
 * `{"errcode": ...}` envelope out, with errors reported under status 200 —
 * which is why the gateway needs success conditions.
 */
export function registerJsonStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/json/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'appid', standard: false });
    return reply;
  });

  app.post('/json/token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    const body = request.body;
    if (field(body, 'grant_type') !== 'authorization_code') {
      return reply.send({ errcode: 40002, errmsg: 'invalid grant_type' });
    }
    const appid = field(body, 'appid') ?? '';
    if (!state.authenticateClient(appid, field(body, 'secret'))) {
      return reply.send({ errcode: 40125, errmsg: 'invalid appsecret' });
    }
    const check = state.redeemCode(field(body, 'code'), appid, field(body, 'redirect_uri'));
    if (!check.ok) return reply.send({ errcode: 40029, errmsg: 'invalid code' });
    return reply.send({
      errcode: 0,
      data: {
        access_token: state.issueToken(appid, check.user),
        openid: state.openid(appid, check.user),
        expires_in: 7200,
      },
    });
  });

  app.post('/json/userinfo', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = context.state.tokenUser(field(request.body, 'access_token'));
    const openid = field(request.body, 'openid');
    if (issued === undefined) {
      return reply.send({ errcode: 40001, errmsg: 'invalid access_token' });
    }
    if (openid !== context.state.openid(issued.appid, issued.user)) {
      return reply.send({ errcode: 40003, errmsg: 'invalid openid' });
    }
    const { user } = issued;
    return reply.send({
      errcode: 0,
      data: { id: user.userId, name: user.name, mail: user.email, dept: user.department },
    });
  });
}
