import type { FastifyBaseLogger } from 'fastify';
import { isSsogateError } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import type { OidcGrantRecord } from './storage/types.js';
import { issuerOf } from './endpoints.js';
import type { GrantsEndReason } from './sign-in-grants.js';
import { signJwt } from './signing-keys.js';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 §2.4). */
const backchannelLogoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/** A logout token is good for two minutes: long enough for the retries below, no more. */
const logoutTokenLifetimeSeconds = 120;

/** The wait before each attempt: none before the first; a retry waits after the attempt before failed. */
const attemptDelaysMs = [0, 2_000, 10_000] as const;

/** Each attempt's deadline, and how much of the client's answer is read. */
const attemptTimeoutMs = 5_000;
const answerBytes = 16 * 1024;

/** One client to tell that one sign-in ended. */
interface LogoutNotice {
  readonly clientId: string;
  readonly uri: string;
  /** The `sub` the client was given (subjects.ts): pairwise for a pairwise client. */
  readonly subject: string;
  /** The user's own id, for the audit trail; null when the user is gone. */
  readonly userId: string | null;
  readonly sid: string;
  readonly entryId: string | null;
  readonly reason: GrantsEndReason;
}

/**
 * Logout tokens on their way to clients' back-channel logout URIs
 * (OpenID Connect Back-Channel Logout 1.0 §2.5): sent off the request path,
 * so the sign-out that ended their grants is answered at once; each attempt
 * audited (`backchannel_logout`) and counted
 * (`ssogate_backchannel_logouts_total`); a failure (no answer, not 200) is
 * tried again twice. Stopped when the app closes: retries still waiting are
 * dropped, attempts under way finish (each has its deadline). One per
 * app, made by the provider's routes (routes.ts), so two gateways in one
 * process share none; a gateway without them (the command line) ends grants
 * without telling anyone.
 */
export class LogoutDeliveries {
  private readonly waiting = new Set<NodeJS.Timeout>();
  private readonly underWay = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly gateway: Gateway,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Tells each client with a back-channel logout URI that its grants' sign-in ended, once per sign-in. */
  send(grants: readonly OidcGrantRecord[], reason: GrantsEndReason): void {
    this.track(
      this.noticesOf(grants, reason).then((notices) => {
        for (const notice of notices) this.attempt(notice, undefined, 0);
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.waiting) clearTimeout(timer);
    this.waiting.clear();
    await Promise.allSettled([...this.underWay]);
  }

  private async noticesOf(
    grants: readonly OidcGrantRecord[],
    reason: GrantsEndReason,
  ): Promise<LogoutNotice[]> {
    const notices = new Map<string, LogoutNotice>();
    for (const grant of grants) {
      const key = `${grant.clientId}\n${grant.sid}`;
      if (notices.has(key)) continue;
      const client = await this.gateway.storage.providerClients.get(grant.clientId);
      const uri = client?.backchannelLogoutUri ?? null;
      if (uri === null) continue;
      const user = await this.gateway.storage.users.get(grant.userRowId);
      notices.set(key, {
        clientId: grant.clientId,
        uri,
        subject: grant.subject,
        userId: user?.userId ?? null,
        sid: grant.sid,
        entryId: grant.entryId,
        reason,
      });
    }
    return [...notices.values()];
  }

  /** Schedules attempt `index` (0-based) of the notice, with the token of the first. */
  private attempt(notice: LogoutNotice, token: string | undefined, index: number): void {
    const delay = attemptDelaysMs[index];
    if (this.closed || delay === undefined) return;
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      this.track(this.deliver(notice, token, index));
    }, delay);
    timer.unref();
    this.waiting.add(timer);
  }

  private track(work: Promise<void>): void {
    const settled = work.catch((error: unknown) => {
      this.log.error({ err: error }, 'a logout token could not be sent');
    });
    this.underWay.add(settled);
    void settled.finally(() => this.underWay.delete(settled));
  }

  private async deliver(
    notice: LogoutNotice,
    signed: string | undefined,
    index: number,
  ): Promise<void> {
    const token = signed ?? (await this.logoutToken(notice));
    let outcome = 'success';
    let status: number | undefined;
    try {
      const answer = await this.gateway.send({
        method: 'POST',
        url: notice.uri,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }).toString(),
        timeoutMs: attemptTimeoutMs,
        maxResponseBytes: answerBytes,
      });
      status = answer.status;
      // §2.8: 200 when the logout succeeded; some clients answer 204.
      if (status !== 200 && status !== 204) outcome = 'backchannel_logout_refused';
    } catch (error) {
      outcome = isSsogateError(error) ? error.code : 'outbound_network';
    }
    this.gateway.telemetry.backchannelLogout(outcome);
    await this.record(notice, outcome, index + 1, status);
    if (outcome !== 'success') this.attempt(notice, token, index + 1);
  }

  /** The logout token (§2.4): signed with the provider's current key, `typ` logout+jwt, no nonce. */
  private async logoutToken(notice: LogoutNotice): Promise<string> {
    const now = this.gateway.clock();
    const seconds = Math.floor(now / 1000);
    return signJwt(
      this.gateway.storage,
      now,
      {
        iss: issuerOf(this.gateway),
        aud: notice.clientId,
        iat: seconds,
        exp: seconds + logoutTokenLifetimeSeconds,
        jti: Buffer.from(this.gateway.random(16)).toString('hex'),
        sub: notice.subject,
        sid: notice.sid,
        events: { [backchannelLogoutEvent]: {} },
      },
      'logout+jwt',
    );
  }

  private async record(
    notice: LogoutNotice,
    outcome: string,
    attempt: number,
    status: number | undefined,
  ): Promise<void> {
    const success = outcome === 'success';
    const facts = { client: notice.clientId, attempt, ended: notice.reason };
    const detail = status === undefined ? facts : { ...facts, status };
    this.log[success ? 'info' : 'warn'](
      { code: success ? undefined : outcome, ...detail },
      success
        ? 'a logout token was delivered'
        : `a logout token was not delivered${attempt < attemptDelaysMs.length ? '; it is tried again' : ''}`,
    );
    try {
      await this.gateway.storage.audit.append({
        at: this.gateway.clock(),
        kind: 'backchannel_logout',
        outcome: success ? 'success' : 'failure',
        entryId: notice.entryId,
        userId: notice.userId,
        actor: null,
        code: success ? null : outcome,
        reference: null,
        durationMs: null,
        detail,
      });
    } catch (error) {
      this.log.warn({ err: error }, 'the audit event of a logout token could not be written');
    }
  }
}
