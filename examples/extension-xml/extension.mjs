// The example extension service: it speaks ssogate's extension contract
// (docs/extension-api.yaml) on one side and the Acme server's dialect on the
// other. The gateway keeps the state, the sessions and the users; this
// service only builds the authorization URL and turns a callback into a user.
//
// Entry settings (extensionSettings): `serverUrl`, the Acme server's base
// URL. The entry's appid is Acme's client_id, its appsecret the key that
// signs the token request.
import { createServer } from 'node:http';
import { acmeSign } from './acme-server.mjs';
import { listen, readBody, send } from './http.mjs';
import { answerHeaders, verifyRequest } from './signing.mjs';
import { readFlatXml } from './xml.mjs';

/** A failure this service reports to the gateway as `{"error": {"code", "message"}}`. */
class ExtensionFailure extends Error {
  constructor(code, message, status = 200) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

function setting(body, name) {
  const value = body.settings?.[name];
  if (typeof value !== 'string' || value === '') {
    throw new ExtensionFailure('settings_invalid', `the entry has no extensionSettings.${name}`);
  }
  return value;
}

function single(query, name) {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

function authorizeUrl(body) {
  if (body.appid === undefined)
    throw new ExtensionFailure('settings_invalid', 'the entry has no appid');
  const url = new URL('/sso/authorize', setting(body, 'serverUrl'));
  url.searchParams.set('client_id', body.appid);
  url.searchParams.set('redirect_uri', body.redirectUri);
  url.searchParams.set('state', body.state);
  return { url: url.href };
}

async function acmeCall(url, init) {
  let response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(8000) });
  } catch {
    throw new ExtensionFailure(
      'server_unreachable',
      `the Acme server at ${new URL(url).host} did not answer`,
    );
  }
  const text = await response.text();
  if (response.status !== 200) {
    throw new ExtensionFailure('server_failed', `the Acme server answered ${response.status}`);
  }
  try {
    return readFlatXml(text);
  } catch (error) {
    throw new ExtensionFailure(
      'server_answer_invalid',
      `the Acme server's answer is not readable XML: ${error.message}`,
    );
  }
}

async function callback(body) {
  const { query } = body;
  // Acme's own names: the code is authCode, a refusal is errorCode/errorMsg.
  const errorCode = single(query, 'errorCode');
  if (errorCode !== undefined) {
    throw new ExtensionFailure(
      errorCode
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 64) || 'declined',
      single(query, 'errorMsg') || 'the server declined the sign-in',
    );
  }
  const authCode = single(query, 'authCode');
  if (authCode === undefined || authCode === '') {
    throw new ExtensionFailure('missing_code', 'the callback carries no single authCode');
  }
  if (body.appid === undefined || body.appsecret === undefined) {
    throw new ExtensionFailure('settings_invalid', 'the entry needs an appid and an appsecret');
  }
  const serverUrl = setting(body, 'serverUrl');
  const fields = {
    client_id: body.appid,
    auth_code: authCode,
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  fields.sign = acmeSign(body.appsecret, fields);
  const token = await acmeCall(new URL('/sso/token', serverUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  if (token.root === 'error' || token.fields.accessToken === undefined) {
    throw new ExtensionFailure(
      'token_request_failed',
      `the token request was refused: ${token.fields.code ?? token.root} ${token.fields.message ?? ''}`.trim(),
    );
  }
  const info = await acmeCall(new URL('/sso/userinfo', serverUrl), {
    headers: { authorization: `Bearer ${token.fields.accessToken}` },
  });
  if (info.root !== 'user' || info.fields.id === undefined) {
    throw new ExtensionFailure(
      'userinfo_failed',
      `the user-info request was refused: ${info.fields.code ?? info.root}`,
    );
  }
  const { id, name, mail, dept, employeeNo, status } = info.fields;
  return {
    user: {
      userId: id,
      ...(name === undefined ? {} : { userName: name }),
      ...(mail === undefined ? {} : { email: mail }),
      ...(dept === undefined ? {} : { department: dept }),
      enabled: status === 'active',
      ...(employeeNo === undefined ? {} : { extra: { employeeNo } }),
    },
  };
}

function parseJson(body) {
  if (body === '') return {};
  try {
    return JSON.parse(body);
  } catch {
    throw new ExtensionFailure('bad_request', 'the request body is not JSON', 400);
  }
}

const routes = {
  'GET /health': () => ({ ok: true, name: 'Acme XML extension', version: '0.1.0' }),
  'POST /authorize-url': authorizeUrl,
  'POST /callback': callback,
};

/**
 * Starts the extension on host:port. `secret` is the entry's
 * extensionSecret; `basePath` is where the routes are mounted (the entry's
 * extensionUrl ends with it).
 */
export async function startExtension({
  host = '127.0.0.1',
  port = 0,
  secret,
  basePath = '',
  log = () => {},
}) {
  if (typeof secret !== 'string' || secret.length < 16) {
    throw new Error('the extension needs the shared secret (at least 16 characters)');
  }
  const seenNonces = new Map();
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://extension.invalid').pathname;
    const nonce = String(request.headers['x-ssogate-nonce'] ?? '');
    const answer = (status, value) => {
      const body = JSON.stringify(value);
      const signed = answerHeaders(secret, { status, nonce, body }, Date.now());
      send(response, status, { 'content-type': 'application/json', ...signed }, body);
    };
    try {
      const body = await readBody(request);
      const refused = verifyRequest(
        secret,
        { method: request.method, path, headers: request.headers, body },
        seenNonces,
        Date.now(),
      );
      if (refused !== undefined) throw new ExtensionFailure('signature_invalid', refused, 401);
      const route = path.startsWith(basePath)
        ? routes[`${request.method} ${path.slice(basePath.length)}`]
        : undefined;
      if (route === undefined)
        throw new ExtensionFailure('not_found', `no route ${request.method} ${path}`, 404);
      answer(200, await route(parseJson(body)));
    } catch (error) {
      const failure =
        error instanceof ExtensionFailure
          ? error
          : new ExtensionFailure('internal_error', 'the extension failed', 500);
      log(`${request.method} ${path}: ${failure.code}: ${failure.message}`);
      answer(failure.status, { error: { code: failure.code, message: failure.message } });
    }
  });
  const { url, close } = await listen(server, host, port);
  return { url: `${url}${basePath}`, close };
}
