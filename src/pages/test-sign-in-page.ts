import { html } from './html.js';
import { renderDocument } from './layout.js';

export interface TestSignInPageInput {
  readonly outcome: 'success' | 'failure';
  /** The code the sign-in would have failed with. */
  readonly code?: string;
}

/**
 * The end of an administrator's test sign-in, in the window that went to the
 * provider: nobody was signed in. The trace itself is read in the console by
 * the administrator who started the test, not on this page.
 */
export function testSignInPage(input: TestSignInPageInput): string {
  return renderDocument(
    'Test sign-in finished',
    html`<h1>Test sign-in finished</h1>
      <p>
        ${
          input.outcome === 'success'
            ? 'The sign-in would succeed.'
            : `The sign-in would fail with ${input.code ?? 'an error'}.`
        }
        Nobody was signed in and no user was created or changed.
      </p>
      <p>The console shows each step. You can close this window.</p>`,
  );
}
