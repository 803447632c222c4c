import type { FastifyInstance, FastifyReply } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * The WeCom (企业微信) style, as its server API documents it under /cgi-bin/:
 * the company's application token first (`gettoken?corpid&corpsecret`),
 * then the code read with that token (`user/getuserinfo?access_token&code`,
 * answering `UserId`), then the member's details (`user/get?userid`). Every
 * answer is HTTP 200 with the envelope `{"errcode": 0, "errmsg": "ok", ...}`;
 * a failure is a non-zero errcode (40001 bad secret, 40014 bad token,
 * 40029 bad code, 60111 unknown user).
 */
export function registerWecomStyle(app: FastifyInstance, context: RouteContext): void {
  /** Application token → the corp (appid) it was issued to. */
  const appTokens = new Map<string, string>();
  const refuse = (reply: FastifyReply, errcode: number, errmsg: string) =>
    reply.send({ errcode, errmsg });

  // The authorization page: WeCom's OAuth link ends in #wechat_redirect, which
  // a browser never sends, so the server sees only the query.
  app.get('/wecom/connect/oauth2/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'appid', standard: true });
    return reply;
  });

  app.get('/wecom/cgi-bin/gettoken', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const corpid = field(request.query, 'corpid');
    if (!context.state.authenticateClient(corpid, field(request.query, 'corpsecret'))) {
      return refuse(reply, 40001, 'invalid credential');
    }
    const token = context.state.newValue();
    appTokens.set(token, corpid ?? '');
    return reply.send({
      errcode: 0,
      errmsg: 'ok',
      access_token: token,
      expires_in: tokenLifetimeSeconds,
    });
  });

  app.get('/wecom/cgi-bin/user/getuserinfo', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const corpid = appTokens.get(field(request.query, 'access_token') ?? '');
    if (corpid === undefined) return refuse(reply, 40014, 'invalid access_token');
    const check = context.state.redeemCodeForClient(field(request.query, 'code'), corpid);
    if (!check.ok) return refuse(reply, 40029, 'invalid code');
    return reply.send({ errcode: 0, errmsg: 'ok', UserId: check.user.userId, DeviceId: '' });
  });

  app.get('/wecom/cgi-bin/user/get', (request, reply) => {
    if (!appTokens.has(field(request.query, 'access_token') ?? '')) {
      return refuse(reply, 40014, 'invalid access_token');
    }
    const userid = field(request.query, 'userid');
    const user = context.state.users.find((candidate) => candidate.userId === userid);
    if (user === undefined) return refuse(reply, 60111, 'userid not found');
    return reply.send({
      errcode: 0,
      errmsg: 'ok',
      userid: user.userId,
      name: user.name,
      department: [1],
      email: user.email,
      status: user.enabled === false ? 2 : 1,
    });
  });

  /** For tests: forget every application token, as when the server revokes them. */
  app.post('/wecom/test/revoke-tokens', (_request, reply) => {
    appTokens.clear();
    return reply.code(204).send();
  });
}
