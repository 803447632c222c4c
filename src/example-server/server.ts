import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import type { RouteContext } from './context.js';
import { defaultClient, defaultUsers } from './defaults.js';
import { FaultQueue } from './faults.js';
import { registerDingtalkStyle } from './dingtalk-style.js';
import { registerFeishuStyle } from './feishu-style.js';
import { registerGithubStyle } from './github-style.js';
import { registerGitlabStyle } from './gitlab-style.js';
import { registerOidcStyles } from './oidc-style.js';
import { registerSlackStyle } from './slack-style.js';
import { registerWechatStyle } from './wechat-style.js';
import { registerGetStyle } from './get-style.js';
import { registerJsonStyle } from './json-style.js';
import { registerSessionRoutes } from './session-routes.js';
import { registerStandardStyle } from './standard-style.js';
import { ExampleState } from './state.js';
import { registerWecomStyle } from './wecom-style.js';
import type { ExampleServer, ExampleServerOptions, RecordedRequest } from './types.js';

/** The example server's icon: a grey key-shaped circle, small enough to inline. */
const exampleIcon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#4b5563"/><circle cx="16" cy="13" r="6" fill="none" stroke="#fff" stroke-width="3"/><path d="M16 19v8" stroke="#fff" stroke-width="3"/></svg>';

/**
 * Starts the bundled example OAuth2 server: its own Fastify instance on its
 * own port, never part of the gateway. One server speaks the three shapes the
 * gateway supports, under /get/, /json/ and /oauth2/, and an emulation of
 * each preset's provider (src/foundation/presets/) under its own prefix: /wecom/,
 * /dingtalk/, /github/, /gitlab/, /slack/, /wechat/, /feishu/, and the
 * OpenID Providers of oidc-profiles.ts.
 */
export async function startExampleServer(
  options: ExampleServerOptions = {},
): Promise<ExampleServer> {
  const host = options.host ?? '127.0.0.1';
  // Destroying connections on close keeps a test's hanging request from blocking it.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(formbody);

  const closing = new AbortController();
  const context: RouteContext = {
    state: new ExampleState(
      options.users ?? defaultUsers,
      options.clients ?? [defaultClient],
      options.issuedPrefix,
    ),
    faults: new FaultQueue(),
    closing: closing.signal,
  };

  const requests: RecordedRequest[] = [];
  const records = new WeakMap<object, RecordedRequest>();
  app.addHook('onRequest', (request, _reply, done) => {
    const url = new URL(request.url, 'http://example.invalid');
    const record: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers },
      body: undefined,
    };
    requests.push(record);
    records.set(request, record);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const record = records.get(request);
    if (record !== undefined) record.body = request.body;
    done();
  });

  // Its pages are the demo's sign-in form: a browser's own request for the icon gets one, not a 404.
  app.get('/favicon.ico', (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(exampleIcon),
  );
  registerSessionRoutes(app, context);
  registerGetStyle(app, context);
  registerJsonStyle(app, context);
  registerStandardStyle(app, context);
  registerGithubStyle(app, context);
  registerWecomStyle(app, context);
  registerDingtalkStyle(app, context);
  registerGitlabStyle(app, context);
  registerSlackStyle(app, context);
  registerWechatStyle(app, context);
  registerFeishuStyle(app, context);
  registerOidcStyles(app, context);

  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  // A wildcard address is not one a browser or the gateway can call.
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port ?? 0}`;

  return {
    url,
    requests,
    updateUser(username, changes) {
      context.state.updateUser(username, changes);
    },
    revokeTokens() {
      context.state.revokeTokens();
    },
    failNext(endpoint, fault) {
      context.faults.push(endpoint, fault);
    },
    clearFaults() {
      context.faults.clear();
    },
    async close() {
      closing.abort();
      await app.close();
    },
  };
}
