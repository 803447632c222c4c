import type { ConsoleMessages } from '../i18n/catalogs.js';

/**
 * The trace of a test sign-in in the language on screen. The gateway
 * records it in its own English (src/features/trial-sign-in/): its step
 * names, what provisioning would do and the failed calls' causes are said
 * here from the catalog; an unknown step or cause keeps the gateway's word.
 * Plain code, no DOM.
 */
type TraceWords = ConsoleMessages['trialSignIn'];

/** A step's name: `user info` → 用户信息, `call member` → 调用 member. */
export function stepName(name: string, words: TraceWords): string {
  const steps: Readonly<Record<string, string>> = words.steps;
  const known = steps[name];
  if (known !== undefined) return known;
  return name.startsWith('call ') ? words.callStep(name.slice('call '.length)) : name;
}

/** What provisioning would do, from its action and the mapped user id; else the gateway's words. */
export function provisioningLine(
  provisioning: { readonly action: string; readonly message: string },
  userId: unknown,
  words: TraceWords,
): string {
  const says: Readonly<Record<string, ((userId: string) => string) | undefined>> =
    words.provisioningSays;
  const said = says[provisioning.action];
  return said !== undefined && typeof userId === 'string' && userId !== ''
    ? said(userId)
    : provisioning.message;
}

/** `POST to host:port failed (UND_ERR_SOCKET)` and time-outs, as outbound-error.ts words them. */
const failedCall = /\b([A-Z]+) to (\S+) failed \(([A-Z_]+)\)/g;
const timedOutCall = /\b([A-Z]+) to (\S+) did not complete within (\d+) ms/g;

/** A failure message with each failed call's cause said in words rather than Node's code. */
export function inWords(message: string, words: TraceWords): string {
  const causes: Readonly<Record<string, string>> = words.networkCauses;
  return message
    .replace(failedCall, (whole, method: string, host: string, code: string) => {
      const cause = causes[code];
      return cause === undefined ? whole : words.callFailed(method, host, cause);
    })
    .replace(timedOutCall, (_whole, method: string, host: string, ms: string) =>
      words.callTimedOut(method, host, ms),
    );
}
