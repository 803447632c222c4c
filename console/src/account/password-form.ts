/**
 * The password form's own checks, before anything is sent: the same rules
 * the gateway applies (src/features/admin-api/password-routes.ts), said in the
 * form's words, plus the confirmation only a form has. Plain code, no DOM.
 */
import { en } from '../i18n/en.js';
import type { ConsoleMessages } from '../i18n/en.js';

export interface PasswordDraft {
  readonly current: string;
  readonly next: string;
  readonly confirm: string;
}

export type PasswordField = keyof PasswordDraft;

/** The labels the page shows, which every message names. */
export const passwordLabels: Readonly<Record<PasswordField, string>> = en.password.labels;

export const minimumLength = 12;

/**
 * Problems by field. Only fields the administrator has reached (`touched`)
 * are checked, unless the form is being submitted.
 */
export function passwordProblems(
  draft: PasswordDraft,
  touched: ReadonlySet<PasswordField>,
  submitting = false,
  words: ConsoleMessages['password'] = en.password,
): Partial<Record<PasswordField, string>> {
  const { labels } = words;
  const reached = (field: PasswordField) => submitting || touched.has(field);
  const problems: Partial<Record<PasswordField, string>> = {};
  if (reached('current') && draft.current === '') {
    problems.current = words.required(labels.current);
  }
  if (reached('next')) {
    const length = Array.from(draft.next).length;
    if (draft.next === '') problems.next = words.required(labels.next);
    else if (length < minimumLength) {
      problems.next = words.tooShort(labels.next, minimumLength, length);
    } else if (draft.next === draft.current) {
      problems.next = words.same(labels.next);
    }
  }
  if (reached('confirm') && draft.confirm !== draft.next) {
    problems.confirm = words.mismatch(labels.confirm, labels.next);
  }
  return problems;
}

/** The field a refusal of the gateway belongs to, by its code. */
export function fieldOfRefusal(code: string): PasswordField | undefined {
  if (code === 'password_wrong') return 'current';
  if (code === 'password_weak') return 'next';
  return undefined;
}
