// An emulated third-party sign-in server of an awkward shape, for the demo
// and the tests: it sends the code back as `authCode` (errors as `errorCode`
// and `errorMsg`), wants the token request signed with HMAC-SHA256 of the
// client secret, and answers in XML. No standard client can talk to it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { listen, readBody, send } from './http.mjs';
import { escapeXml } from './xml.mjs';

export const defaultAcmeUsers = [
  {
    username: 'alice',
    password: 'alice-password',
    id: 'alice',
    name: 'Alice Example',
    mail: 'alice@example.test',
    dept: 'Testing',
    employeeNo: 'E-1001',
  },
  {
    username: 'bob',
    password: 'bob-password',
    id: 'bob',
    name: 'Bob Example',
    mail: 'bob@example.test',
    dept: 'Sales',
    employeeNo: 'E-1002',
  },
];

export const defaultAcmeClient = { clientId: 'acme-demo', secret: 'acme-demo-client-secret' };

const random = () => randomBytes(24).toString('base64url');

/** The canonical text the token request's `sign` covers (parameters sorted by name). */
export function acmeSignText(fields) {
  return Object.keys(fields)
    .filter((name) => name !== 'sign')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
}

export function acmeSign(secret, fields) {
  return createHmac('sha256', secret).update(acmeSignText(fields), 'utf8').digest('hex');
}

function xmlDocument(root, fields) {
  const children = Object.entries(fields)
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><${root}>${children}</${root}>`;
}

const xmlError = (code, message) => xmlDocument('error', { code, message });

function cookieOf(request, name) {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const escapeHtml = (text) => String(text).replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

function loginPage(continueTo) {
  return `<!doctype html><meta charset="utf-8"><title>Acme sign-in</title>
<h1>Acme sign-in</h1>
<form method="post" action="/sso/login">
<input type="hidden" name="continue" value="${escapeHtml(continueTo)}">
<label>User <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button>Sign in</button>
</form>`;
}

/**
 * Starts the server. `failNext(endpoint, fault)` makes the next call to
 * `authorize`, `token` or `userinfo` fail: `{ delayMs }`, `{ status, body }`,
 * or for authorize `{ errorCode, errorMsg }` (the user declined).
 */
export async function startAcmeServer({
  host = '127.0.0.1',
  port = 0,
  users = defaultAcmeUsers,
  clients = [defaultAcmeClient],
} = {}) {
  const sessions = new Map(); // session id -> username
  const codes = new Map(); // authCode -> { clientId, username, expiresAt }
  const tokens = new Map(); // access token -> username
  const faults = { authorize: [], token: [], userinfo: [] };
  const requests = [];
  const userNamed = (username) => users.find((user) => user.username === username);
  const clientWithId = (clientId) => clients.find((client) => client.clientId === clientId);

  async function applyFault(endpoint, response) {
    const fault = faults[endpoint].shift();
    if (fault === undefined) return false;
    if ('delayMs' in fault) {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      return false;
    }
    if ('status' in fault) {
      send(response, fault.status, { 'content-type': 'application/xml' }, fault.body ?? '');
      return true;
    }
    return fault;
  }

  async function authorize(url, request, response) {
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    const state = url.searchParams.get('state') ?? '';
    const client = clientWithId(url.searchParams.get('client_id') ?? '');
    if (client === undefined || !/^https?:\/\//.test(redirectUri)) {
      send(response, 400, { 'content-type': 'text/plain' }, 'unknown client or redirect_uri');
      return;
    }
    const back = new URL(redirectUri);
    const fault = await applyFault('authorize', response);
    if (fault === true) return;
    if (fault !== false && 'errorCode' in fault) {
      back.searchParams.set('errorCode', fault.errorCode);
      back.searchParams.set('errorMsg', fault.errorMsg ?? '');
      back.searchParams.set('state', state);
      send(response, 302, { location: back.href });
      return;
    }
    const username = sessions.get(cookieOf(request, 'acme_session') ?? '');
    if (username === undefined) {
      send(
        response,
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        loginPage(url.pathname + url.search),
      );
      return;
    }
    const authCode = random();
    codes.set(authCode, { clientId: client.clientId, username, expiresAt: Date.now() + 60_000 });
    back.searchParams.set('authCode', authCode);
    back.searchParams.set('state', state);
    send(response, 302, { location: back.href });
  }

  async function login(request, response) {
    const form = new URLSearchParams(await readBody(request));
    const user = userNamed(form.get('username') ?? '');
    if (user === undefined || user.password !== form.get('password')) {
      send(
        response,
        401,
        { 'content-type': 'text/html; charset=utf-8' },
        loginPage(form.get('continue') ?? '/'),
      );
      return;
    }
    const session = random();
    sessions.set(session, user.username);
    const continueTo = form.get('continue') ?? '';
    send(response, 302, {
      'set-cookie': `acme_session=${session}; Path=/; HttpOnly; SameSite=Lax`,
      location: continueTo.startsWith('/sso/authorize?') ? continueTo : '/',
    });
  }

  async function token(request, response) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    requests.at(-1).body = form;
    const fault = await applyFault('token', response);
    if (fault === true) return;
    const answer = (xml) => send(response, 200, { 'content-type': 'application/xml' }, xml);
    const client = clientWithId(form.client_id ?? '');
    if (client === undefined) return answer(xmlError('CLIENT_UNKNOWN', 'unknown client_id'));
    const expected = Buffer.from(acmeSign(client.secret, form), 'utf8');
    const given = Buffer.from(form.sign ?? '', 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return answer(xmlError('SIGN_INVALID', 'the sign parameter does not match'));
    }
    if (Math.abs(Number(form.timestamp) - Date.now() / 1000) > 300) {
      return answer(xmlError('TIMESTAMP_EXPIRED', 'the timestamp is too old'));
    }
    const code = codes.get(form.auth_code ?? '');
    codes.delete(form.auth_code ?? '');
    if (code === undefined || code.clientId !== client.clientId || code.expiresAt < Date.now()) {
      return answer(xmlError('AUTH_CODE_INVALID', 'the authCode is unknown, used or expired'));
    }
    const accessToken = random();
    tokens.set(accessToken, code.username);
    return answer(xmlDocument('token', { accessToken, expiresIn: '7200' }));
  }

  async function userinfo(request, response) {
    const fault = await applyFault('userinfo', response);
    if (fault === true) return;
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const user = userNamed(tokens.get(bearer) ?? '');
    if (user === undefined) {
      send(
        response,
        200,
        { 'content-type': 'application/xml' },
        xmlError('TOKEN_INVALID', 'unknown access token'),
      );
      return;
    }
    const { id, name, mail, dept, employeeNo } = user;
    const status = user.disabled === true ? 'locked' : 'active';
    send(
      response,
      200,
      { 'content-type': 'application/xml' },
      xmlDocument('user', { id, name, mail, dept, employeeNo, status }),
    );
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://acme.invalid');
    requests.push({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: undefined,
    });
    const route = `${request.method} ${url.pathname}`;
    const handled =
      route === 'GET /sso/authorize'
        ? authorize(url, request, response)
        : route === 'POST /sso/login'
          ? login(request, response)
          : route === 'POST /sso/token'
            ? token(request, response)
            : route === 'GET /sso/userinfo'
              ? userinfo(request, response)
              : route === 'GET /'
                ? Promise.resolve(
                    send(
                      response,
                      200,
                      { 'content-type': 'text/plain' },
                      sessions.has(cookieOf(request, 'acme_session') ?? '')
                        ? 'Signed in at Acme.'
                        : 'Acme sign-in server.',
                    ),
                  )
                : Promise.resolve(
                    send(response, 404, { 'content-type': 'text/plain' }, 'not found'),
                  );
    handled.catch(() => {
      if (!response.headersSent)
        send(response, 500, { 'content-type': 'text/plain' }, 'server error');
    });
  });
  const { url, close } = await listen(server, host, port);
  return {
    url,
    requests,
    failNext(endpoint, fault) {
      faults[endpoint].push(fault);
    },
    close,
  };
}
