import type { CallbacksInFlight } from './callbacks-in-flight.js';

/**
 * A browser for the soak: one cookie jar per site, where the gateway's
 * instances are one site (behind a load balancer they share one public
 * address). Every request to the public address goes to an instance the
 * balancer picks; redirects are followed by hand so each hop is recorded.
 */

export interface Hop {
  readonly url: string;
  readonly status: number;
  readonly location: string | undefined;
  readonly body: string;
}

export interface Page {
  readonly status: number;
  readonly body: string;
  readonly hops: readonly Hop[];
}

/** Picks a live instance's origin for a request to the public address. */
export type Balancer = () => string;

/** Generous: a loaded two-core machine may be slow, and outcomes are decided by invariants. */
export const requestTimeoutMs = 60_000;

export class SoakBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(
    private readonly publicOrigin: string,
    private readonly balance: Balancer,
    /** Where callbacks are counted while the instance serves them. */
    private readonly callbacks?: CallbacksInFlight,
  ) {}

  cookie(origin: string, name: string): string | undefined {
    return this.jar(origin).get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    this.jar(origin).set(name, value);
  }

  cookieHeader(origin: string): string {
    return [...this.jar(origin)].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Where a URL of the public address really goes. */
  resolve(url: string): string {
    const target = new URL(url);
    if (target.origin !== this.publicOrigin) return url;
    return `${this.balance()}${target.pathname}${target.search}`;
  }

  async open(url: string, maxHops = 10): Promise<Page> {
    return this.request('GET', url, undefined, maxHops);
  }

  async submit(url: string, fields: Record<string, string>): Promise<Page> {
    return this.request('POST', url, new URLSearchParams(fields).toString());
  }

  async request(method: string, url: string, form?: string, maxHops = 10): Promise<Page> {
    const hops: Hop[] = [];
    let current = url;
    let currentMethod = method;
    let body = form;
    for (;;) {
      const origin = new URL(current).origin;
      const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml' };
      const cookie = this.cookieHeader(origin);
      if (cookie !== '') headers.cookie = cookie;
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const target = this.resolve(current);
      const flight = this.callbacks?.begin(target);
      let response: Response;
      let text: string;
      try {
        response = await fetch(target, {
          method: currentMethod,
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(requestTimeoutMs),
          ...(body === undefined ? {} : { body }),
        });
        text = await response.text();
      } catch (error) {
        this.callbacks?.end(target, flight, 'cut');
        throw error;
      }
      this.callbacks?.end(target, flight, 'answered');
      this.store(origin, response.headers.getSetCookie());
      const location = response.headers.get('location') ?? undefined;
      hops.push({ url: current, status: response.status, location, body: text });
      if (location === undefined || response.status < 300 || response.status > 399) {
        return { status: response.status, body: text, hops };
      }
      if (hops.length > maxHops) return { status: response.status, body: text, hops };
      current = new URL(location, current).toString();
      if (response.status !== 307 && response.status !== 308) {
        currentMethod = 'GET';
        body = undefined;
      }
    }
  }

  private jar(origin: string): Map<string, string> {
    let jar = this.jars.get(origin);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(origin, jar);
    }
    return jar;
  }

  private store(origin: string, setCookies: readonly string[]): void {
    const jar = this.jar(origin);
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) jar.delete(name);
      else jar.set(name, pair.slice(equals + 1).trim());
    }
  }
}

/** The error code of a gateway failure, from its page or its JSON body. */
export function errorCodeOf(body: string): string | undefined {
  const page = /Error code: <code>([a-z_]+)<\/code>/.exec(body)?.[1];
  if (page !== undefined) return page;
  const json = /"code"\s*:\s*"([a-z_]+)"/.exec(body)?.[1];
  return json;
}
