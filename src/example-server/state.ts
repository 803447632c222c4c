import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { codeLifetimeMs } from './defaults.js';
import type { ExampleClient, ExampleUser } from './types.js';

interface IssuedCode {
  readonly appid: string;
  readonly redirectUri: string;
  readonly user: ExampleUser;
  readonly expiresAt: number;
  readonly codeChallenge: string | undefined;
  /** The OpenID Connect `nonce` of the authorization request, for the id_token. */
  readonly nonce?: string | undefined;
}

export interface IssuedToken {
  readonly appid: string;
  readonly user: ExampleUser;
}

type CodeCheck =
  { ok: true; user: ExampleUser; nonce?: string | undefined } | { ok: false; reason: string };

function randomValue(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time comparison, so the example does not teach a timing leak. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The example server's memory: sessions, codes and tokens. Nothing persists. */
export class ExampleState {
  private readonly sessions = new Map<string, ExampleUser>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, IssuedToken>();

  private people: ExampleUser[];

  constructor(
    users: readonly ExampleUser[],
    readonly clients: readonly ExampleClient[],
    /** Put before every code, token and session id issued, so a log scan can recognise them. */
    readonly issuedPrefix = '',
  ) {
    this.people = [...users];
  }

  get users(): readonly ExampleUser[] {
    return this.people;
  }

  /** For tests: a person changed at the provider (disabled, renamed); issued tokens see it. */
  updateUser(username: string, changes: Partial<ExampleUser>): void {
    this.people = this.people.map((user) =>
      user.username === username ? { ...user, ...changes } : user,
    );
  }

  /** For tests: every access token forgotten, as when the provider revokes them. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** A fresh code, token or session id, with the recognisable prefix if any. */
  newValue(): string {
    return `${this.issuedPrefix}${randomValue()}`;
  }

  findClient(appid: string | undefined): ExampleClient | undefined {
    return this.clients.find((client) => client.appid === appid);
  }

  authenticateClient(appid: string | undefined, secret: string | undefined): boolean {
    const client = this.findClient(appid);
    return client !== undefined && secret !== undefined && sameText(client.secret, secret);
  }

  checkPassword(username: string, password: string): ExampleUser | undefined {
    const user = this.users.find((candidate) => candidate.username === username);
    return user !== undefined && sameText(user.password, password) ? user : undefined;
  }

  startSession(user: ExampleUser): string {
    const id = this.newValue();
    this.sessions.set(id, user);
    return id;
  }

  sessionUser(id: string | undefined): ExampleUser | undefined {
    return id === undefined ? undefined : this.sessions.get(id);
  }

  endSession(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }

  issueCode(issued: Omit<IssuedCode, 'expiresAt'>): string {
    const code = this.newValue();
    this.codes.set(code, { ...issued, expiresAt: Date.now() + codeLifetimeMs });
    return code;
  }

  /**
   * Consumes the code whatever the outcome, so a code is single-use even when
   * the first attempt failed (RFC 6749 §4.1.2), then checks its binding.
   */
  redeemCode(
    code: string | undefined,
    appid: string,
    redirectUri: string | undefined,
    codeVerifier?: string,
  ): CodeCheck {
    const issued = code === undefined ? undefined : this.codes.get(code);
    if (code === undefined || issued === undefined) return { ok: false, reason: 'unknown code' };
    this.codes.delete(code);
    if (issued.expiresAt < Date.now()) return { ok: false, reason: 'expired code' };
    if (issued.appid !== appid) return { ok: false, reason: 'code issued to another client' };
    if (issued.redirectUri !== redirectUri) return { ok: false, reason: 'redirect_uri mismatch' };
    if (issued.codeChallenge !== undefined) {
      const computed =
        codeVerifier === undefined
          ? ''
          : createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
      if (!sameText(computed, issued.codeChallenge)) {
        return { ok: false, reason: 'PKCE verification failed' };
      }
    }
    return { ok: true, user: issued.user, nonce: issued.nonce };
  }

  /**
   * Redeems a code sent without a redirect_uri, as servers whose user-info
   * call takes the code do (WeCom): the code is still single-use and bound
   * to the client it was issued to.
   */
  redeemCodeForClient(code: string | undefined, appid: string): CodeCheck {
    const issued = code === undefined ? undefined : this.codes.get(code);
    if (code === undefined || issued === undefined) return { ok: false, reason: 'unknown code' };
    return this.redeemCode(code, appid, issued.redirectUri);
  }

  issueToken(appid: string, user: ExampleUser): string {
    const token = this.newValue();
    this.tokens.set(token, { appid, user });
    return token;
  }

  /** The token's client and user, the user as the provider knows them now. */
  tokenUser(token: string | undefined): IssuedToken | undefined {
    const issued = token === undefined ? undefined : this.tokens.get(token);
    if (issued === undefined) return undefined;
    const now = this.people.find((user) => user.userId === issued.user.userId);
    return now === undefined ? undefined : { appid: issued.appid, user: now };
  }

  /** A stable per-client user id, as WeChat-like servers hand out. */
  openid(appid: string, user: ExampleUser): string {
    return createHash('sha256').update(`${appid}\n${user.userId}`).digest('base64url').slice(0, 22);
  }
}
