import { join } from 'node:path';
import { buildApp } from '../../../app/build-app.js';
import { createGateway } from '../../../app/create-gateway.js';
import { openStorage } from '../../../app/open-storage.js';
import { compileEntry } from '../../../core/index.js';
import { freePort } from '../../../test-support/free-port.js';
import { capturingLogger } from '../../../test-support/log-capture.js';
import type { TestGateway, TestGatewayOptions } from '../../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../../test-support/gateway-fixture.js';
import type { BrowserResponse, TestBrowser } from '../../../test-support/browser.js';
import type { OpenIdProvider, OpenIdProviderOptions } from './openid-provider.js';
import { startOpenIdProvider } from './openid-provider.js';

export interface OidcTestSetup {
  readonly gw: TestGateway;
  readonly provider: OpenIdProvider;
  close(): Promise<void>;
}

/**
 * A gateway with one OpenID Connect entry, `oidc`, in front of a real OpenID
 * Provider on loopback. The provider registers the gateway's callback, so it
 * starts once the gateway's URL is known; the entry is then stored.
 */
export async function startOidcSetup(
  entry: (provider: OpenIdProvider) => Record<string, unknown> = () => ({}),
  options: {
    readonly gateway?: TestGatewayOptions;
    readonly provider?: Partial<OpenIdProviderOptions>;
  } = {},
): Promise<OidcTestSetup> {
  const gw = await startTestGateway(options.gateway);
  let provider: OpenIdProvider;
  try {
    provider = await startOpenIdProvider({
      gatewayUrl: gw.url,
      entryId: 'oidc',
      ...options.provider,
    });
  } catch (error) {
    await gw.close();
    throw error;
  }
  await gw.storage.entries.create(
    compileEntry({
      id: 'oidc',
      name: 'OpenID Provider',
      enabled: true,
      appid: provider.clientId,
      appsecret: provider.clientSecret,
      oidc: { issuer: provider.issuer },
      ...entry(provider),
    }).input,
    0,
  );
  gw.gateway.entries.invalidate();
  return {
    gw,
    provider,
    async close() {
      await gw.close();
      await provider.close();
    },
  };
}

/**
 * Follows redirects one by one from `url` and stops at the first that would
 * bring the browser to `stopAt` (the gateway's callback), returning where.
 */
export async function redirectTarget(
  browser: TestBrowser,
  url: string,
  stopAt: string,
): Promise<{ readonly location: string; readonly last: BrowserResponse }> {
  let current = url;
  for (let hop = 0; hop < 12; hop += 1) {
    const response = await browser.open(current, { maxHops: 0 });
    const location = response.hops[0]?.location;
    if (location === undefined) return { location: current, last: response };
    const next = new URL(location, current).toString();
    if (next.startsWith(stopAt)) return { location: next, last: response };
    current = next;
  }
  throw new Error(`no redirect to ${stopAt}`);
}

/**
 * Another gateway instance over the same database (and Redis, when the run
 * has one): its own storage connections, entry registry, session cache and
 * provider metadata, on a port of its own, as a second process would be.
 */
export async function startSecondInstance(
  gw: TestGateway,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const storage = await openStorage(gw.gateway.config);
  const gateway = createGateway(gw.gateway.config, storage);
  const app = await buildApp(gateway, { logger: capturingLogger().logger });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

/** The settings that put a test's SQLite database in a file two instances can share. */
export function sharedDatabaseEnv(dir: string): Record<string, string> {
  return process.env.SSOGATE_TEST_DATABASE_URL === undefined ||
    process.env.SSOGATE_TEST_DATABASE_URL === ''
    ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'shared.db')}` }
    : {};
}

/** Posts the form of a provider page (its hidden fields, plus `extra`), following redirects. */
export async function submitProviderForm(
  browser: TestBrowser,
  page: BrowserResponse,
  extra: Record<string, string> = {},
): Promise<BrowserResponse> {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  if (action === undefined) throw new Error(`no form on ${page.url}`);
  const fields: Record<string, string> = { ...extra };
  for (const [, name, value] of page.body.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
  )) {
    if (name !== undefined && value !== undefined) fields[name] = value;
  }
  return browser.submit(new URL(action.replaceAll('&amp;', '&'), page.url).toString(), fields);
}
