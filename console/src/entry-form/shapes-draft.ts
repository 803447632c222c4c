import type { ConsoleMessages } from '../i18n/catalogs.js';
import type { EntryBody, EntryView, Problem } from '../types.js';

/**
 * The form's state for the shapes beyond the basic flow
 * (docs/entries.md#shapes-beyond-the-basic-flow): the simple ones as fields,
 * the application token and the calls after user info as one JSON text.
 */
export interface ShapesDraft {
  readonly callbackCodeParameter: string;
  readonly authorizeFragment: string;
  readonly codeInUserInfo: boolean;
  /** `responseMode: form_post`: the server posts its answer to the callback. */
  readonly formPost: boolean;
  /** `{"appToken": …, "userInfoValues": […], "userInfoCalls": […], "groupMapping": …}`, or blank. */
  readonly calls: string;
}

export const emptyShapes: ShapesDraft = {
  callbackCodeParameter: '',
  authorizeFragment: '',
  codeInUserInfo: false,
  formPost: false,
  calls: '',
};

const callKeys = ['appToken', 'userInfoValues', 'userInfoCalls', 'groupMapping'] as const;

export function shapesFromEntry(view: EntryView): ShapesDraft {
  const calls = Object.fromEntries(
    callKeys.filter((key) => view[key] !== undefined).map((key) => [key, view[key]]),
  );
  return {
    callbackCodeParameter: view.callbackCodeParameter ?? '',
    authorizeFragment: view.authorizeFragment ?? '',
    codeInUserInfo: view.codeInUserInfo ?? false,
    formPost: view.responseMode === 'form_post',
    calls: Object.keys(calls).length === 0 ? '' : JSON.stringify(calls, null, 2),
  };
}

type CallsWords = Pick<
  ConsoleMessages['entryForm'],
  'callsNotJson' | 'callsNotObject' | 'callsUnknown' | 'listSeparator'
>;

/** The calls text as an object, or why it is not one, said in the words handed in. */
function parseCalls(
  text: string,
):
  { ok: true; value: Record<string, unknown> } | { ok: false; say: (words: CallsWords) => string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    return { ok: false, say: (words) => words.callsNotJson(reason) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, say: (words) => words.callsNotObject };
  }
  const unknown = Object.keys(value).filter(
    (key) => !(callKeys as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    return {
      ok: false,
      say: (words) =>
        words.callsUnknown(callKeys.join(words.listSeparator), unknown.join(words.listSeparator)),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** What the form itself finds wrong, before the API is asked. */
export function shapesProblems(draft: ShapesDraft, words: CallsWords): Problem[] {
  const parsed = parseCalls(draft.calls);
  return parsed.ok ? [] : [{ field: 'shapes.calls', message: parsed.say(words) }];
}

/** The shapes' part of the entry body; blank fields are left out. */
export function shapesBody(draft: ShapesDraft): Partial<EntryBody> {
  const parsed = parseCalls(draft.calls);
  const calls = parsed.ok ? parsed.value : {};
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    callbackCodeParameter: optional(draft.callbackCodeParameter),
    authorizeFragment: optional(draft.authorizeFragment),
    codeInUserInfo: draft.codeInUserInfo ? true : undefined,
    responseMode: draft.formPost ? 'form_post' : undefined,
    ...(calls as Partial<EntryBody>),
  };
}
