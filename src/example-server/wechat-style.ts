import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';
import type { ExampleUser } from './types.js';

/**
 * WeChat's website login (微信开放平台, 网站应用微信登录): the QR page
 * `/connect/qrconnect` with `scope=snsapi_login` and `#wechat_redirect`;
 * `GET /sns/oauth2/access_token?appid&secret&code&grant_type` answering the
 * token with the user's `openid` and `unionid`; `GET
 * /sns/userinfo?access_token&openid`. A failure is HTTP 200 with
 * `{"errcode": 40029, "errmsg": "invalid code"}` and the like.
 */
/** One id across the company's WeChat applications (unlike the openid, one per application). */
function wechatUnionid(user: ExampleUser): string {
  return `oWx${Buffer.from(user.userId).toString('hex')}`;
}

export function registerWechatStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/wechat/connect/qrconnect', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'appid', standard: true });
    return reply;
  });

  app.get('/wechat/sns/oauth2/access_token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    const appid = field(request.query, 'appid') ?? '';
    if (!state.authenticateClient(appid, field(request.query, 'secret'))) {
      return reply.send({ errcode: 40125, errmsg: 'invalid appsecret' });
    }
    const check = state.redeemCodeForClient(field(request.query, 'code'), appid);
    if (!check.ok) return reply.send({ errcode: 40029, errmsg: 'invalid code' });
    return reply.send({
      access_token: state.issueToken(appid, check.user),
      expires_in: tokenLifetimeSeconds,
      refresh_token: 'unused',
      openid: state.openid(appid, check.user),
      scope: 'snsapi_login',
      unionid: wechatUnionid(check.user),
    });
  });

  app.get('/wechat/sns/userinfo', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = context.state.tokenUser(field(request.query, 'access_token'));
    if (issued === undefined) return reply.send({ errcode: 40001, errmsg: 'invalid credential' });
    const { user } = issued;
    if (field(request.query, 'openid') !== context.state.openid(issued.appid, user)) {
      return reply.send({ errcode: 40003, errmsg: 'invalid openid' });
    }
    return reply.send({
      openid: context.state.openid(issued.appid, user),
      nickname: user.name,
      sex: 0,
      province: '',
      city: '',
      country: '',
      headimgurl: '',
      privilege: [],
      unionid: wechatUnionid(user),
    });
  });
}
