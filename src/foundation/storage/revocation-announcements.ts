import type { Revocation } from './session-revocations.js';
import {
  Acknowledgements,
  RevocationListeners,
  revocationFrom,
  subjectOf,
} from './session-revocations.js';

interface RevocationAnnouncementsOptions {
  /** This instance's id, the first word of what it announces. */
  readonly instanceId: string;
  /** How long an announcement waits for the instances' acknowledgements. */
  readonly ackTimeoutMs: number;
  /** Sends `nonce` on the acknowledgement channel of the instance `sender`. */
  acknowledge(sender: string, nonce: string): Promise<unknown>;
}

/**
 * The protocol both announcing feeds speak (redis/redis-revocation-feed.ts
 * over pub/sub, postgres/postgres-revocation-feed.ts over LISTEN/NOTIFY): an
 * announcement `instanceId nonce scope subject` on one channel, applied and
 * acknowledged by every other instance with `nonce` on the sender's own
 * channel; the sender counts its own delivery and waits for as many
 * acknowledgements as the transport said it reached receivers. What is
 * remembered is trusted only while `live`; a heartbeat left unanswered for a
 * whole period distrusts.
 */
export class RevocationAnnouncements {
  readonly listeners = new RevocationListeners();
  /** Whether the listening connection is known to be live. */
  live = false;
  private readonly waiting = new Map<string, Acknowledgements>();
  private nonceCounter = 0;
  private pingOutstanding = false;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: RevocationAnnouncementsOptions) {}

  /** An acknowledgement heard on this instance's own channel. */
  acknowledged(nonce: string): void {
    const wait = this.waiting.get(nonce);
    if (wait === undefined) return;
    wait.count += 1;
    if (wait.count >= wait.expected) wait.done();
  }

  /** An announcement heard on the shared channel: applied, then acknowledged to its sender. */
  heard(message: string): void {
    const [sender = '', nonce = '', scope = '', ...rest] = message.split(' ');
    if (sender === this.options.instanceId) {
      this.acknowledged(nonce);
      return;
    }
    this.listeners.run(revocationFrom(scope, rest.join(' ')) ?? { scope: 'all' });
    this.options.acknowledge(sender, nonce).catch(() => {
      // The sender stops waiting at its time-out.
    });
  }

  /** Forgets everything and trusts nothing until a heartbeat is answered. */
  distrust(): void {
    this.live = false;
    this.listeners.run({ scope: 'all' });
  }

  /** Trusts again once `ping` is answered, if `current()` still says the connection is the live one. */
  confirm(ping: () => Promise<unknown>, current: () => boolean): void {
    this.pingOutstanding = true;
    ping().then(
      () => {
        this.pingOutstanding = false;
        if (current()) this.live = true;
      },
      () => {
        // The connection broke (its own event has distrusted) or the ping
        // timed out: the next beat pings again.
        this.pingOutstanding = false;
      },
    );
  }

  /** Every `everyMs`: distrusts if the last ping is still unanswered, otherwise runs `beat`. */
  startHeartbeat(everyMs: number, beat: () => void): void {
    this.heartbeat = setInterval(() => {
      if (this.pingOutstanding) {
        if (this.live) this.distrust();
        return;
      }
      beat();
    }, everyMs);
    this.heartbeat.unref();
  }

  /**
   * Applies `revocation` here, sends it with `send` (which answers how many
   * receivers it reached), and waits for their acknowledgements or the time-out.
   */
  async announce(
    revocation: Revocation,
    send: (message: string) => Promise<number>,
  ): Promise<void> {
    this.listeners.run(revocation);
    this.nonceCounter += 1;
    const nonce = String(this.nonceCounter);
    const wait = new Acknowledgements();
    this.waiting.set(nonce, wait);
    const timer = setTimeout(() => {
      wait.done();
    }, this.options.ackTimeoutMs);
    try {
      const message = `${this.options.instanceId} ${nonce} ${revocation.scope} ${subjectOf(revocation)}`;
      wait.expect(await send(message));
      await wait.finished;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }

  /** Stops the heartbeat and the listeners, and ends every announcement's wait. */
  close(): void {
    clearInterval(this.heartbeat);
    this.listeners.clear();
    for (const wait of this.waiting.values()) wait.done();
  }
}
