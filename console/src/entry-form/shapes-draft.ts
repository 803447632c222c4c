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
  /** `{"appToken": …, "userInfoValues": […], "userInfoCalls": […], "groupMapping": …}`, or blank. */
  readonly calls: string;
}

export const emptyShapes: ShapesDraft = {
  callbackCodeParameter: '',
  authorizeFragment: '',
  codeInUserInfo: false,
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
    calls: Object.keys(calls).length === 0 ? '' : JSON.stringify(calls, null, 2),
  };
}

/** The calls text as an object, or a problem saying why it is not one. */
function parseCalls(text: string): Record<string, unknown> | Problem {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { field: 'shapes.calls', message: `not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { field: 'shapes.calls', message: 'must be a JSON object' };
  }
  const unknown = Object.keys(value).filter(
    (key) => !(callKeys as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    return {
      field: 'shapes.calls',
      message: `holds only ${callKeys.join(', ')}; not ${unknown.join(', ')}`,
    };
  }
  return value as Record<string, unknown>;
}

/** What the form itself finds wrong, before the API is asked. */
export function shapesProblems(draft: ShapesDraft): Problem[] {
  const parsed = parseCalls(draft.calls);
  return 'message' in parsed && typeof parsed.message === 'string' ? [parsed as Problem] : [];
}

/** The shapes' part of the entry body; blank fields are left out. */
export function shapesBody(draft: ShapesDraft): Partial<EntryBody> {
  const parsed = parseCalls(draft.calls);
  const calls = shapesProblems(draft).length > 0 ? {} : parsed;
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    callbackCodeParameter: optional(draft.callbackCodeParameter),
    authorizeFragment: optional(draft.authorizeFragment),
    codeInUserInfo: draft.codeInUserInfo ? true : undefined,
    ...(calls as Partial<EntryBody>),
  };
}
