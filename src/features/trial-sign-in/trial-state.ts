/**
 * A test sign-in's state is 48 random bytes (64 base64url characters); a
 * sign-in's is 32 (43 characters, src/core/request/random.ts). Both are
 * far over the 128 bits RFC 6749 §10.10 asks for. The length tells a test's
 * callback from a sign-in's before anything is read, so an ordinary
 * sign-in's callback costs no lookup of a test sign-in.
 */
export const trialStateBytes = 48;

const trialStateLength = Math.ceil((trialStateBytes * 4) / 3);

/** Whether a callback's state has the shape of a test sign-in's: only then is one looked up. */
export function isTrialState(state: string): boolean {
  return state.length === trialStateLength && /^[A-Za-z0-9_-]+$/.test(state);
}
