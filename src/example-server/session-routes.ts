import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.js';
import { field, httpUrl, readCookie } from './context.js';
import { sessionCookie } from './defaults.js';
import { loginPage, messagePage } from './html.js';

/** Only a path on this server: the form must not become an open redirect. */
function safeContinue(value: string | undefined): string {
  return value !== undefined && /^\/(?![/\\])/.test(value) ? value : '/';
}

/** The example server's own sign-in and sign-out: its session cookie. */
export function registerSessionRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get('/login', async (request, reply) => {
    const continueTo = safeContinue(field(request.query, 'continue'));
    return reply.type('text/html').send(loginPage({ continueTo }));
  });

  app.post('/login', async (request, reply) => {
    const continueTo = safeContinue(field(request.body, 'continue'));
    const user = context.state.checkPassword(
      field(request.body, 'username') ?? '',
      field(request.body, 'password') ?? '',
    );
    if (user === undefined) {
      return reply
        .code(401)
        .type('text/html')
        .send(loginPage({ continueTo, error: 'Wrong username or password.' }));
    }
    const session = context.state.startSession(user);
    return reply
      .header('set-cookie', `${sessionCookie}=${session}; Path=/; HttpOnly; SameSite=Lax`)
      .redirect(continueTo, 303);
  });

  app.get('/logout', async (request, reply) => {
    context.state.endSession(readCookie(request, sessionCookie));
    reply.header('set-cookie', `${sessionCookie}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    const target = httpUrl(field(request.query, 'redirect_uri'));
    if (target !== undefined) return reply.redirect(target.href, 302);
    return reply.type('text/html').send(messagePage('Signed out', 'You are signed out.'));
  });

  app.get('/', async (_request, reply) =>
    reply
      .type('text/html')
      .send(
        messagePage(
          'Example OAuth2 server',
          'Endpoints: /get/*, /json/* and /oauth2/* (authorize, token, userinfo), /login, /logout.',
        ),
      ),
  );
}
