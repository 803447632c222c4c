/**
 * The sessions the load holds, by what the harness knows of them: live
 * (signed in, never signed out), signed out (the sign-out was answered:
 * the cookie must be refused from then on), or uncertain (a sign-out whose
 * answer was lost). The end checks read every one of them again.
 */

export interface HeldSession {
  readonly userId: string;
  readonly cookie: string;
  state: 'live' | 'signed_out' | 'uncertain';
}

export class HeldSessions {
  readonly all: HeldSession[] = [];

  add(userId: string, cookie: string): void {
    this.all.push({ userId, cookie, state: 'live' });
  }

  /** A random session in that state, or undefined. */
  pick(state: HeldSession['state']): HeldSession | undefined {
    const candidates = this.all.filter((session) => session.state === state);
    return candidates[Math.floor(Math.random() * candidates.length)];
  }

  count(state: HeldSession['state']): number {
    return this.all.filter((session) => session.state === state).length;
  }
}
