import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

interface TrialSignInPageInput {
  readonly outcome: 'success' | 'failure';
  /** The code the sign-in would have failed with. */
  readonly code?: string;
  readonly page?: PageContext;
}

/**
 * The end of an administrator's test sign-in, in the window that went to the
 * provider: nobody was signed in. The trace itself is read in the console by
 * the administrator who started the test, not on this page.
 */
export function trialSignInPage(input: TrialSignInPageInput): string {
  const t = messagesOf(input.page).trialSignIn;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.title}</h1>
      <p>
        ${input.outcome === 'success' ? t.wouldSucceed : html`${t.wouldFail} <code>${input.code ?? 'internal_error'}</code>.`}
        ${t.nothingChanged}
      </p>
      <p>${t.seeConsole}</p>`,
  );
}
