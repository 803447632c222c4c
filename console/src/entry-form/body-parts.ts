import type { EntryBody } from '../types.js';
import type { CallDraft, SecretDraft } from './entry-draft.js';

/**
 * The pieces of an entry body every kind builds from the form's state
 * (console/src/entry-kinds/): a call's options, a write-only secret, a number as
 * typed, and the blank fields left out. Plain code, no DOM.
 */

export function isPost(template: string): boolean {
  return template.startsWith('POST ');
}

type CallBody = NonNullable<EntryBody['tokenRequest']>;

export function callBody(
  call: CallDraft,
  url: string,
  extra: Pick<CallBody, 'clientAuthentication'> = {},
): CallBody | undefined {
  const headers = call.headers.filter((row) => row.name !== '' || row.value !== '');
  const body: CallBody = {
    ...(headers.length === 0
      ? {}
      : { headers: headers.map(({ name, value }) => ({ name, value })) }),
    // A body encoding only means something for a POST call; the core refuses it on GET.
    ...(isPost(url) && call.bodyEncoding === 'form' ? { bodyEncoding: 'form' } : {}),
    ...(call.successCondition.trim() === '' ? {} : { successCondition: call.successCondition }),
    ...extra,
  };
  return Object.keys(body).length === 0 ? undefined : body;
}

export function secretBody(secret: SecretDraft): string | null | undefined {
  if (secret.mode === 'clear') return null;
  if (secret.mode === 'keep' || secret.value === '') return undefined;
  return secret.value;
}

/** A number field as typed: absent when blank; a number when it is one, else the text, which the core names as wrong. */
export function numberOrText(typed: string): number | string | undefined {
  const text = typed.trim();
  if (text === '') return undefined;
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** A body as it is built: a field left blank is there, as undefined. */
export type WithBlanks<T> = { [K in keyof T]?: T[K] | undefined };

/** The body without its blank fields, which the API reads as absent. */
export function withoutUndefined<T>(value: WithBlanks<T>): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
