import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { rootCertificates } from 'node:tls';
import type { Agent, buildConnector } from 'undici';
import type { OutboundRequest, ThirdPartyResponse } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import type { AddressPolicy } from './address-policy.js';
import { addressPolicy } from './address-policy.js';
import { loadUndici } from './lazy-module.js';
import { describeCall } from './outbound-error.js';
import { sendOutbound } from './send-outbound.js';

/** The resolver's signature as net.connect calls it (with `all` under happy eyeballs). */
export type Lookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void,
) => void;

interface OutboundClientOptions {
  /** Which hosts and addresses may be called (SSOGATE_OUTBOUND_ALLOW). */
  readonly policy?: AddressPolicy;
  /** Connections at once to one origin (SSOGATE_OUTBOUND_MAX_CONNECTIONS). */
  readonly maxConnectionsPerOrigin?: number;
  /** PEM certificates trusted besides Node's bundled roots (SSOGATE_CA_FILE). */
  readonly extraCertificates?: readonly string[];
  /** The resolver; tests make names resolvable without touching the system's. */
  readonly lookup?: Lookup;
}

const defaultMaxConnectionsPerOrigin = 16;

/**
 * The gateway's client for every call an entry names: token, user-info,
 * back-channel logout and extension calls. Around sendOutbound it adds:
 *
 * - the address policy, before connecting: the URL's host, and then every
 *   address DNS gives for it (all of a multi-address answer), so a name that
 *   resolves to loopback or a metadata address is refused with no connection;
 * - a connect phase (DNS, TCP, TLS) bounded by the call's own time-out: one
 *   undici Agent per time-out value, whose connect time-out is that value;
 * - at most `maxConnectionsPerOrigin` calls at once per origin, so a server
 *   that hangs cannot take every socket; a call over the cap waits for a
 *   free slot within its own deadline, then fails with `outbound_busy`.
 */
export class OutboundClient {
  private readonly policy: AddressPolicy;
  private readonly maxPerOrigin: number;
  private readonly agents = new Map<number, Agent>();
  private readonly gates = new Map<string, OriginGate>();
  private readonly tls: { ca?: string[] };
  private readonly lookup: Lookup;

  constructor(options: OutboundClientOptions = {}) {
    this.policy = options.policy ?? addressPolicy();
    this.maxPerOrigin = options.maxConnectionsPerOrigin ?? defaultMaxConnectionsPerOrigin;
    // Giving `ca` replaces Node's trust, so the bundled roots are given too.
    this.tls =
      options.extraCertificates === undefined || options.extraCertificates.length === 0
        ? {}
        : { ca: [...rootCertificates, ...options.extraCertificates] };
    this.lookup = options.lookup ?? dnsLookup;
  }

  readonly send = async (outbound: OutboundRequest): Promise<ThirdPartyResponse> => {
    const url = new URL(outbound.url);
    const call = describeCall(outbound.method, url);
    const refusal = this.policy.hostRefusal(url.hostname);
    if (refusal !== undefined) throw refused(call, refusal);
    // Before the deadline starts: the first call loads undici.
    const dispatcher = await this.agentFor(outbound.timeoutMs);
    const deadline = AbortSignal.timeout(outbound.timeoutMs);
    const gate = this.gateFor(url.origin);
    await gate.enter(deadline, call, this.maxPerOrigin);
    return sendOutbound(outbound, {
      call,
      dispatcher,
      deadline,
      onSettled: () => {
        gate.leave();
      },
    });
  };

  async close(): Promise<void> {
    await Promise.all(this.takeAgents().map((agent) => agent.close()));
  }

  /**
   * Ends the calls under way at once, each failing as a network error, and
   * their connections: for a stop past its deadline, which would otherwise
   * wait for each call's own time-out in close().
   */
  async abort(): Promise<void> {
    await Promise.all(this.takeAgents().map((agent) => agent.destroy()));
  }

  /** The agents, forgotten at once: a close during an abort finds none to close twice. */
  private takeAgents(): Agent[] {
    const agents = [...this.agents.values()];
    this.agents.clear();
    return agents;
  }

  private gateFor(origin: string): OriginGate {
    let gate = this.gates.get(origin);
    if (gate === undefined) {
      gate = new OriginGate(() => this.gates.delete(origin));
      this.gates.set(origin, gate);
    }
    return gate;
  }

  /**
   * Entries have few distinct time-outs, so few Agents; each bounds its
   * connects by its own. undici is loaded with the first call: a gateway
   * that never calls a third-party server never holds its code in memory.
   */
  private async agentFor(timeoutMs: number): Promise<Agent> {
    const existing = this.agents.get(timeoutMs);
    if (existing !== undefined) return existing;
    const undici = await loadUndici();
    // Another call may have made it while undici loaded.
    let agent = this.agents.get(timeoutMs);
    if (agent === undefined) {
      agent = new undici.Agent({
        connections: this.maxPerOrigin,
        connect: this.connector(timeoutMs, undici.buildConnector),
      });
      this.agents.set(timeoutMs, agent);
    }
    return agent;
  }

  private connector(
    timeoutMs: number,
    connectorOf: typeof buildConnector,
  ): buildConnector.connector {
    const connect = connectorOf({
      ...this.tls,
      timeout: timeoutMs,
      lookup: this.checkedLookup,
    });
    return (options, callback) => {
      // net.connect skips the resolver for an address literal: judged here.
      const refusal = this.policy.hostRefusal(options.hostname);
      if (refusal !== undefined) {
        callback(refused(`a call to ${options.hostname}`, refusal), null);
        return;
      }
      connect(options, callback);
    };
  }

  /** The resolver net.connect uses: every address of the answer must pass the policy. */
  private readonly checkedLookup: Lookup = (hostname, options, callback) => {
    this.lookup(hostname, { ...options, all: true }, (error, answer) => {
      if (error !== null) {
        callback(error, '');
        return;
      }
      const addresses = answer as LookupAddress[];
      for (const { address } of addresses) {
        const refusal = this.policy.addressRefusal(hostname, address);
        if (refusal !== undefined) {
          callback(refused(`a call to ${hostname}`, `${hostname} resolves to ${refusal}`), '');
          return;
        }
      }
      if (options.all === true) {
        callback(null, addresses);
      } else {
        const [first] = addresses;
        callback(null, first?.address ?? '', first?.family);
      }
    });
  };
}

function refused(call: string, reason: string): SsogateError {
  return new SsogateError(
    'outbound_address_refused',
    `${call} refused before connecting: ${reason}; SSOGATE_OUTBOUND_ALLOW can let it through`,
  );
}

/** Calls in flight to one origin, and the calls waiting for one of them to end. */
class OriginGate {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly onIdle: () => void) {}

  async enter(deadline: AbortSignal, call: string, max: number): Promise<void> {
    if (this.inFlight < max) {
      this.inFlight += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const admit = (): void => {
        deadline.removeEventListener('abort', giveUp);
        resolve();
      };
      const giveUp = (): void => {
        this.waiting.splice(this.waiting.indexOf(admit), 1);
        reject(
          new SsogateError(
            'outbound_busy',
            `${call} waited its whole time-out for a connection: ${max} calls to this server ` +
              'are in flight already (SSOGATE_OUTBOUND_MAX_CONNECTIONS)',
          ),
        );
      };
      deadline.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(admit);
    });
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next !== undefined) {
      next(); // The slot passes to the next call directly.
      return;
    }
    this.inFlight -= 1;
    if (this.inFlight === 0) this.onIdle();
  }
}
