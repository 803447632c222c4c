import type { EntryDraft } from '../entry-form/entry-draft.js';
import type { WithBlanks } from '../entry-form/body-parts.js';
import type { ConsoleMessages } from '../i18n/catalogs.js';
import type { EntryBody, EntryView } from '../types.js';

/**
 * What the console knows of one kind of entry (docs/entries.md): how the
 * form shows it, how the list marks it, what a trial sign-in needs of it
 * and how its trace blames a field, and how its draft becomes the admin
 * API's body. Each kind is one module of this folder, listed in
 * registry.ts; nothing else in the console reads an entry's `type`.
 * Plain code, no DOM: the form draws the sections a kind names
 * (entry-form/entry-form-page.tsx).
 */

/** An entry's `type` as the admin API has it. */
export type EntryKindId = EntryView['type'];

/**
 * The form's sections below its general fields, each drawn by
 * entry-form/entry-form-page.tsx: an OpenID Connect entry's issuer
 * (oidc-fields.tsx), the OAuth2 flow's calls with the users section
 * (oauth2-fields.tsx), an extension's service (extension-fields.tsx), an
 * LDAP directory (ldap-fields.tsx), a SAML identity provider
 * (saml-fields.tsx), and the users section alone (provisioning-fields.tsx).
 */
export type FormSectionName =
  | 'oidcIssuer'
  | 'oauth2Flow'
  | 'extensionService'
  | 'ldapDirectory'
  | 'samlIdentityProvider'
  | 'users';

/** A credential of the general fields a trial sign-in may need typed first. */
export type TrialCredential = 'appid' | 'appsecret';

/** A failed step of a trial sign-in's trace (src/features/trial-sign-in/trace-types.ts). */
export interface FailedStep {
  readonly name: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The fields every kind's body shares, built by entry-draft.ts toEntryBody. */
export type CommonBody = WithBlanks<EntryBody>;

export interface EntryKind {
  readonly id: EntryKindId;
  /** Its choice in the form's Type field. */
  label(words: ConsoleMessages): string;
  /** The badge beside the entry's name in the list, or none. */
  badge(words: ConsoleMessages): string | undefined;
  /** The sections the form shows for it, in order. */
  readonly sections: readonly FormSectionName[];
  /** Whether the form offers the test with pasted samples (entry-form/samples-panel.tsx). */
  readonly samplesTest: boolean;
  /** Whether the form offers a test sign-in (trial-sign-in/trial-sign-in-panel.tsx). */
  readonly trialSignIn: boolean;
  /**
   * The credentials a trial sign-in of the draft would use, so those left
   * empty are named before the provider's window opens
   * (trial-sign-in/missing-credentials.ts). `templates` is the body as JSON.
   */
  trialCredentials(
    draft: Pick<EntryDraft, 'clientAuthentication'>,
    templates: string,
  ): readonly TrialCredential[];
  /**
   * The form field a failed step of this kind's sign-in blames
   * (trial-sign-in/blamed-field.ts); `failedLabel` is the label of the
   * step's first failed result, or ''. Undefined for a step not its own.
   */
  blamedField(step: FailedStep, failedLabel: string): string | undefined;
  /** The admin API's body for the draft, from the fields every kind shares. */
  body(draft: EntryDraft, common: CommonBody): EntryBody;
}
