import { Agent, fetch as undiciFetch } from 'undici';
import type { Dispatcher } from 'undici';

/**
 * A minimal browser for end-to-end tests over real HTTP: it keeps cookies per
 * host (name, value, Max-Age=0 deletion) and follows redirects by hand across
 * the gateway and the third-party server, recording every hop, so a test can
 * assert that a silent sign-in was nothing but redirects. `exchange` is one
 * request with nothing followed, for a test that walks the redirects itself
 * (the example server's own tests).
 */
export interface Hop {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly location: string | undefined;
}

export interface BrowserResponse {
  readonly status: number;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string;
  readonly hops: readonly Hop[];
}

export interface TestBrowserOptions {
  /**
   * Connects to this address whatever the URL's host names, keeping the
   * name in the Host header and the cookie jars: several hosts
   * (`wiki.localhost`, `git.localhost`) on one loopback listener.
   */
  readonly connectTo?: string;
  /**
   * Each request on a connection of its own, never kept alive: with several
   * workers sharing a listener, each may land on another worker.
   */
  readonly freshConnections?: boolean;
  /**
   * Page loads (an Accept naming text/html) carry what a browser's navigation
   * carries, `Sec-Fetch-Mode: navigate` and `Sec-Fetch-Dest: document`, where
   * fetch itself says `cors`: some relying parties (mod_auth_openidc) answer
   * anything but a navigation with 401 instead of sending it to sign in.
   */
  readonly navigation?: boolean;
}

/** A dispatcher whose page loads say they are navigations (TestBrowserOptions.navigation). */
function navigatingAgent(): Dispatcher {
  return new Agent().compose((dispatch) => (options, handler) => {
    const headers = options.headers as Record<string, string> | null | undefined;
    const page = typeof headers?.accept === 'string' && headers.accept.includes('text/html');
    return dispatch(
      page
        ? {
            ...options,
            headers: { ...headers, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
          }
        : options,
      handler,
    );
  });
}

/** The dispatcher `options` ask for; none (fetch's own) when they ask nothing. */
function dispatcherFor(options: TestBrowserOptions): Dispatcher | undefined {
  const { connectTo } = options;
  if (options.navigation === true) return navigatingAgent();
  if (connectTo !== undefined) {
    return new Agent({
      connect: {
        lookup: (_hostname, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all === true)
            (callback as (error: null, all: { address: string; family: number }[]) => void)(null, [
              { address: connectTo, family: 4 },
            ]);
          else callback(null, connectTo, 4);
        },
      },
    });
  }
  return options.freshConnections === true ? new Agent({ pipelining: 0 }) : undefined;
}

export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  private readonly dispatcher: Dispatcher | undefined;

  constructor(options: TestBrowserOptions = {}) {
    this.dispatcher = dispatcherFor(options);
  }

  /** Closes the connections of a browser made with a dispatcher of its own. */
  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  cookies(origin: string): ReadonlyMap<string, string> {
    return this.jar(new URL(origin).host);
  }

  setCookie(origin: string, name: string, value: string): void {
    this.jar(new URL(origin).host).set(name, value);
  }

  /** GET a page as a browser would (Accept: text/html), following redirects. */
  async open(
    url: string,
    options: { maxHops?: number; accept?: string } = {},
  ): Promise<BrowserResponse> {
    return this.request('GET', url, undefined, options);
  }

  /** POST a form and follow the redirects that come back. */
  async submit(url: string, fields: Record<string, string>): Promise<BrowserResponse> {
    return this.request('POST', url, new URLSearchParams(fields).toString());
  }

  async request(
    method: string,
    url: string,
    form: string | undefined,
    {
      maxHops = 10,
      accept = 'text/html,application/xhtml+xml',
    }: { maxHops?: number; accept?: string } = {},
  ): Promise<BrowserResponse> {
    const hops: Hop[] = [];
    let current = url;
    let currentMethod = method;
    let body = form;
    for (;;) {
      const response = await this.exchange(currentMethod, current, body, accept);
      const location = response.headers.get('location') ?? undefined;
      hops.push({ method: currentMethod, url: current, status: response.status, location });
      if (
        location === undefined ||
        response.status < 300 ||
        response.status > 399 ||
        hops.length > maxHops
      ) {
        return {
          status: response.status,
          url: current,
          headers: response.headers,
          body: await response.text(),
          hops,
        };
      }
      await response.arrayBuffer();
      current = new URL(location, current).toString();
      if (response.status !== 307 && response.status !== 308) {
        currentMethod = 'GET';
        body = undefined;
      }
    }
  }

  /**
   * One request with the cookies of its host, and nothing followed: the
   * answer as it came (a redirect included), its cookies kept. A form is
   * sent as application/x-www-form-urlencoded; `extra` headers are added
   * as a client of its own making would send them.
   */
  async exchange(
    method: string,
    url: string,
    form?: string | Record<string, string>,
    accept = 'text/html,application/xhtml+xml',
    extra: Readonly<Record<string, string>> = {},
  ): Promise<Response> {
    const target = new URL(url);
    const headers: Record<string, string> = { ...extra, accept };
    const cookie = [...this.jar(target.host)].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie !== '') headers.cookie = cookie;
    const body =
      form === undefined || typeof form === 'string' ? form : new URLSearchParams(form).toString();
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const init = {
      method,
      headers,
      redirect: 'manual' as const,
      ...(body === undefined ? {} : { body }),
    };
    const response =
      this.dispatcher === undefined
        ? await fetch(url, init)
        : ((await undiciFetch(url, {
            ...init,
            dispatcher: this.dispatcher,
          })) as unknown as Response);
    this.store(target.host, response.headers.getSetCookie());
    return response;
  }

  private jar(host: string): Map<string, string> {
    let jar = this.jars.get(host);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(host, jar);
    }
    return jar;
  }

  private store(host: string, setCookies: readonly string[]): void {
    const jar = this.jar(host);
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(equals + 1).trim());
    }
  }
}
