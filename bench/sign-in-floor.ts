/**
 * The floor of a sign-in in Node.js: the least any server must do for one
 * OAuth2 authorization-code sign-in (RFC 6749 §4.1) against the peer
 * benchmark's OAuth2 server, with nothing else. A state bound to the browser
 * by a cookie and used once, the token and user-info calls over undici (the
 * gateway's client, with the same time-outs), a session in a Map, and the
 * redirects. No database, no audit, no logs, no limits, no checks of the
 * answers beyond reading the two fields it needs.
 *
 * bench/cpu-alternated.sh runs it beside the gateway and the Express +
 * Passport stack, so the CPU per sign-in of the three is measured in turns:
 * what the gateway costs above this floor is what its own work costs.
 *
 *   SSOGATE_PORT=28195 IDP_URL=http://127.0.0.1:28180 node build/bench/sign-in-floor.js
 *
 * Its routes are the gateway's, so the same load runs against both:
 * /_sso/login/bench, /_sso/callback, /_sso/auth, /_sso/healthz and "/".
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';

const host = '127.0.0.1';
const port = Number(process.env.SSOGATE_PORT ?? 28195);
const origin = `http://${host}:${port}`;
const idp = process.env.IDP_URL ?? 'http://127.0.0.1:28180';
const clientId = 'bench-client';
const clientSecret = 'bench-secret';
const redirectUri = `${origin}/_sso/callback`;

const pendingStates = new Map<string, string>(); // state -> return path
const sessions = new Map<string, string>(); // session id -> user id

const token = (): string => randomBytes(32).toString('base64url');

function cookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, value] = part.trim().split('=');
    if (key === name) return value;
  }
  return undefined;
}

function redirect(res: ServerResponse, location: string, setCookie: string): void {
  res.writeHead(302, { location, 'set-cookie': setCookie }).end();
}

async function getJson(url: string): Promise<Record<string, unknown>> {
  const answer = await request(url, { signal: AbortSignal.timeout(10_000) });
  const body = (await answer.body.json()) as Record<string, unknown>;
  if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}`);
  return body;
}

function start(res: ServerResponse, url: URL): void {
  const state = token();
  pendingStates.set(state, url.searchParams.get('return_to') ?? '/');
  const authorize = new URL('/authorize', idp);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
  }).toString();
  redirect(res, authorize.href, `floor_state=${state}; Path=/_sso; HttpOnly; SameSite=Lax`);
}

async function callback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const state = url.searchParams.get('state') ?? '';
  const returnTo = pendingStates.get(state);
  // Single use, and only in the browser that started it.
  pendingStates.delete(state);
  if (returnTo === undefined || cookie(req, 'floor_state') !== state) {
    res.writeHead(400).end('bad state');
    return;
  }
  const tokenUrl = new URL('/token', idp);
  tokenUrl.search = new URLSearchParams({
    grant_type: 'authorization_code',
    code: url.searchParams.get('code') ?? '',
    redirect_uri: redirectUri,
    client_id: clientId,
    client_secret: clientSecret,
  }).toString();
  const accessToken = String((await getJson(tokenUrl.href)).access_token);
  const info = await getJson(`${idp}/userinfo?access_token=${encodeURIComponent(accessToken)}`);
  const user = info.user as { userId: string };
  const sessionId = token();
  sessions.set(sessionId, user.userId);
  redirect(res, returnTo, `floor_session=${sessionId}; Path=/; HttpOnly; SameSite=Lax`);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', origin);
  const user = sessions.get(cookie(req, 'floor_session') ?? '');
  switch (url.pathname) {
    case '/_sso/login/bench':
      start(res, url);
      return;
    case '/_sso/callback':
      return void callback(req, res, url).catch((error: unknown) => {
        res.writeHead(502).end(String(error));
      });
    case '/_sso/auth':
      if (user === undefined) res.writeHead(401).end();
      else res.writeHead(200, { 'x-auth-request-user': user }).end();
      return;
    case '/_sso/healthz':
      return void res.end('ok');
    case '/':
      if (user === undefined) res.writeHead(302, { location: '/_sso/login/bench' }).end();
      else res.end(`hello user ${user}`);
      return;
    default:
      res.writeHead(404).end();
  }
});
server.listen(port, host);
