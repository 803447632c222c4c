import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { TestBrowser } from '../../test-support/browser.js';
import { caddySkip, startCaddy } from '../../test-support/caddy.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import {
  defaultEntryWithoutEmail,
  signInAtExample,
  startTestGateway,
} from '../../test-support/gateway-fixture.js';
import {
  ingressAuthOf,
  ingressNginxConf,
  ingressNginxServer,
  setMiscSkip,
} from '../../test-support/ingress-nginx.js';
import { nginxSkip, startNginx } from '../../test-support/nginx.js';
import { proxyDocSnippet } from '../../test-support/proxy-doc.js';
import type { RunningProxy } from '../../test-support/proxy-process.js';
import type { EchoUpstream, Seen } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

/**
 * The proxy snippets of docs/proxy.md "Many hosts", each for three hosts: the
 * auth host (the gateway itself) and two application hosts behind the proxy,
 * grafana and wiki. One sign-in at the provider serves both, each by a
 * handoff; the identity headers arrive; a client's own copy of them never
 * does. Names under `.test` (RFC 6761), every one connected to loopback.
 */
interface ProxiedHosts {
  gw: TestGateway;
  proxy: RunningProxy;
  apps: Record<'grafana' | 'wiki', EchoUpstream>;
  at: (host: 'sso' | 'grafana' | 'wiki', path: string) => string;
  close: () => Promise<void>;
}

/** The gateway, two echo applications and the proxy `start` runs for them. */
async function proxiedHosts(
  start: (
    proxyPort: number,
    gateway: string,
    apps: ProxiedHosts['apps'],
    gatewayPort: number,
  ) => Promise<RunningProxy>,
): Promise<ProxiedHosts> {
  const apps = { grafana: await startEchoUpstream(), wiki: await startEchoUpstream() };
  const proxyPort = await freePort();
  let gatewayPort = 0;
  const gw = await startTestGateway({
    // No e-mail address in this entry's mapping: the check answers without one.
    entries: defaultEntryWithoutEmail,
    envOfPort: (port) => {
      gatewayPort = port;
      return {
        SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}`,
        SSOGATE_FORWARD_AUTH_HOSTS: `grafana.corp.test:${proxyPort},wiki.corp.test:${proxyPort}`,
        // Judged on every check, so every check must name its path.
        SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/admin', admins: true }]),
      };
    },
  });
  const proxy = await start(proxyPort, gw.url, apps, gatewayPort);
  return {
    gw,
    proxy,
    apps,
    at: (host, path) =>
      `http://${host}.corp.test:${host === 'sso' ? gatewayPort : proxyPort}${path}`,
    async close() {
      await proxy.stop();
      await gw.close();
      for (const app of Object.values(apps)) await app.close();
    },
  };
}

/** The stories every proxy's snippet must tell. */
function threeHostStories(
  name: string,
  setUp: () => Promise<ProxiedHosts>,
  /** Where on the application host the proxy sends a browser without a session, if anywhere. */
  signInAt?: string,
): void {
  let hosts: ProxiedHosts;
  const browser = new TestBrowser({ connectTo: '127.0.0.1' });
  const authorizations = () =>
    hosts.gw.example.requests.filter(({ path }) => path.endsWith('/authorize')).length;

  before(async () => {
    hosts = await setUp();
    await signInAtExample(browser, hosts.gw.example.url);
  });
  after(async () => {
    await browser.close();
    await hosts.close();
  });

  test(`${name}: one sign-in, both application hosts land on their page with the identity`, async () => {
    const { at } = hosts;
    const grafana = await browser.open(at('grafana', '/d/home?from=now&x=%2F'));
    assert.equal(grafana.status, 200, JSON.stringify(grafana.hops));
    assert.equal(grafana.url, at('grafana', '/d/home?from=now&x=%2F'));
    if (signInAt !== undefined)
      assert.ok(
        grafana.hops.some(({ url }) => url.startsWith(at('grafana', signInAt))),
        `the proxy sent the browser to ${signInAt}: ${JSON.stringify(grafana.hops)}`,
      );
    assert.ok(
      grafana.hops.some(({ url }) => url.startsWith(at('sso', '/_sso/handoff?'))),
      'handed off by the auth host',
    );
    const seen = JSON.parse(grafana.body) as Seen;
    assert.equal(seen.url, '/d/home?from=now&x=%2F');
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    assert.equal(seen.headers['x-auth-request-email'], undefined);
    const once = authorizations();
    assert.equal(once, 1, 'the provider asked once');

    const wiki = await browser.open(at('wiki', '/page'));
    assert.equal(wiki.status, 200);
    assert.equal(wiki.url, at('wiki', '/page'));
    assert.equal((JSON.parse(wiki.body) as Seen).headers['x-auth-request-user'], 'alice');
    assert.equal(authorizations(), once, 'the second host needed no provider');
  });

  replayedCookieStory(name, () => hosts, browser);

  test(`${name}: an access rule is judged on the path served, whatever URI header the client adds`, async () => {
    const { at, apps } = hosts;
    const before = apps.grafana.seen.length;
    const status = async (path: string, headers: Record<string, string> = {}) =>
      (await fetchWith(browser, at('grafana', path), headers)).status;
    assert.equal(await status('/admin'), 403, 'alice is no administrator');
    assert.equal(await status('/%61dmin/x'), 403);
    // Each proxy names the path in one header and passes the client's
    // others on: one that disagrees is refused (nginx turns the 400 into
    // 500), or replaced by the proxy's own (Caddy's X-Forwarded-Uri).
    for (const headers of [
      { 'x-forwarded-uri': '/public' },
      { 'x-original-uri': '/' },
      { 'x-original-url': at('grafana', '/public') },
    ]) {
      const refused = await status('/admin', headers);
      assert.ok([400, 403, 500].includes(refused), `${JSON.stringify(headers)}: ${refused}`);
    }
    assert.equal(apps.grafana.seen.length, before, 'the application never served /admin');
    assert.equal(await status('/public'), 200);
    assert.equal(apps.grafana.seen.at(-1)?.url, '/public');
  });

  test(`${name}: a client's own identity headers never reach the application`, async () => {
    const { at, apps } = hosts;
    const forged = { 'x-auth-request-user': 'root', 'x-auth-request-email': 'root@corp.test' };
    // Signed in: the check's identity, and no e-mail address (the check gave none).
    const signedIn = await browser.request('GET', at('grafana', '/forged'), undefined, {
      accept: 'application/json',
    });
    assert.equal(signedIn.status, 200);
    const withCookie = await fetchWith(browser, at('grafana', '/forged'), forged);
    assert.equal(withCookie.status, 200);
    const seen = apps.grafana.seen.at(-1);
    assert.equal(seen?.url, '/forged');
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    assert.equal(seen.headers['x-auth-request-email'], undefined);
    assert.ok(
      !Object.values(seen.headers).some((value) => String(value).includes('{http.')),
      'no placeholder of the proxy reaches the application',
    );
    // Without a session: refused, the application never asked.
    const before = apps.wiki.seen.length;
    const stranger = new TestBrowser({ connectTo: '127.0.0.1' });
    try {
      // Refused: a 401, or (ingress-nginx's error_page) a redirect to sign in.
      const refused = await fetchWith(stranger, at('wiki', '/forged'), forged);
      assert.ok([401, 302].includes(refused.status), String(refused.status));
    } finally {
      await stranger.close();
    }
    assert.equal(apps.wiki.seen.length, before);
  });
}

/**
 * A test of the stories: one host's session cookie, replayed to the other
 * host with headers that name the first, must not reach the application.
 */
function replayedCookieStory(name: string, hosts: () => ProxiedHosts, browser: TestBrowser): void {
  test(`${name}: a host's cookie replayed to another host, whatever the headers claim, is no session`, async () => {
    const { at, apps } = hosts();
    const wikiCookie = browser.cookies(at('wiki', '/')).get('ssogate_session');
    assert.ok(wikiCookie !== undefined, 'the wiki has its own session');
    const thief = new TestBrowser({ connectTo: '127.0.0.1' });
    try {
      thief.setCookie(at('grafana', '/'), 'ssogate_session', wikiCookie);
      const before = apps.grafana.seen.length;
      for (const claims of [
        {},
        { 'x-forwarded-host': new URL(at('wiki', '/')).host },
        { 'x-original-url': at('wiki', '/replayed') },
        { 'x-forwarded-host': new URL(at('wiki', '/')).host, 'x-original-url': at('wiki', '/x') },
      ]) {
        const answer = await fetchWith(thief, at('grafana', '/replayed'), claims);
        assert.notEqual(answer.status, 200, JSON.stringify(claims));
      }
      assert.equal(apps.grafana.seen.length, before, 'the application was never reached');
    } finally {
      await thief.close();
    }
  });
}

/** One request with the browser's cookies and `headers`, answered as JSON, not followed. */
async function fetchWith(
  browser: TestBrowser,
  url: string,
  headers: Record<string, string>,
): Promise<Response> {
  const answer = await browser.exchange('GET', url, undefined, 'application/json', headers);
  await answer.arrayBuffer();
  return answer;
}

describe('docs/proxy.md "Many hosts": Caddy', { skip: caddySkip }, () => {
  threeHostStories('Caddy', () =>
    proxiedHosts(async (port, gateway, apps) => {
      const snippet = await proxyDocSnippet(
        "Caddy (as in [Caddy](#caddy) below: the client's own copies of the identity",
        'caddy',
      );
      const site = (name: 'grafana' | 'wiki') =>
        snippet
          .replaceAll('grafana.corp.example', `http://${name}.corp.test:${port}`)
          .replaceAll('127.0.0.1:8080', new URL(gateway).host)
          .replaceAll('10.0.0.8:3000', new URL(apps[name].url).host);
      return startCaddy(`${site('grafana')}\n${site('wiki')}`, `http://127.0.0.1:${port}/`);
    }),
  );
});

/**
 * The configuration ingress-nginx renders for the application Ingress of
 * docs/proxy.md "Many hosts" (its annotations read from the page), one
 * server per application host.
 */
async function ingressNginxOfDoc(
  port: number,
  gateway: string,
  apps: ProxiedHosts['apps'],
): Promise<(dir: string) => string> {
  const ingress = parse(
    await proxyDocSnippet("Kubernetes ingress-nginx: the application's Ingress for", 'yaml'),
  ) as { metadata: { annotations: Record<string, string> } };
  const auth = ingressAuthOf(ingress.metadata.annotations);
  return (dir) =>
    ingressNginxConf(
      dir,
      port,
      (['grafana', 'wiki'] as const).map((name) =>
        ingressNginxServer({ port, host: `${name}.corp.test`, auth, gateway, app: apps[name].url }),
      ),
    );
}

describe(
  'docs/proxy.md "Many hosts": ingress-nginx, as its controller renders it',
  { skip: nginxSkip || setMiscSkip },
  () => {
    threeHostStories(
      'ingress-nginx',
      () =>
        proxiedHosts(async (port, gateway, apps) =>
          startNginx(
            await ingressNginxOfDoc(port, gateway, apps),
            `http://127.0.0.1:${port}/healthz`,
          ),
        ),
      // auth-signin with the URL asked for, its path and query escaped.
      '/_sso/handoff/start?rd=http://grafana.corp.test:',
    );
  },
);
