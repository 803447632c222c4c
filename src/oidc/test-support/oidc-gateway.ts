import { compileEntry } from '../../core/index.js';
import type { TestGateway, TestGatewayOptions } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { BrowserResponse, TestBrowser } from '../../test-support/browser.js';
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
  const provider = await startOpenIdProvider({
    gatewayUrl: gw.url,
    entryId: 'oidc',
    ...options.provider,
  });
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
