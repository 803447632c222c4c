import { z } from 'zod';
import type { EntryInput } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import type { ApiCall } from './api-route.js';
import { invalidField } from './api-failure.js';
import type { ApiRouter } from './api-router.js';
import { changedFields, fieldChanges, jsonChanges } from './entry-changes.js';
import { entryAnswers, withoutSecret } from './entry-answers.js';
import { entryAnswer, entryListAnswer } from './response-schemas.js';
import { entryParams } from './schemas.js';

const entryOrderBody = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).max(1000),
});

/**
 * The switches of the console's entry list (docs/design.md#the-entry): enable and disable,
 * make an entry the one default or none, and the chooser's order. Each is a
 * write of the stored entry, audited with the fields it changed.
 */
export function entryStateRoutes(api: ApiRouter): void {
  const { gateway } = api;
  const store = gateway.storage.entries;
  const { present, stored, changed, endSessionsIfClosed } = entryAnswers(gateway);

  /** Writes `change(input)` over the stored entry, keeping its secret. */
  const write = async (
    call: ApiCall,
    id: string,
    action: string,
    change: (input: EntryInput) => EntryInput,
  ) => {
    const before = await stored(id);
    const after = change(before.input);
    const fields = changedFields(before.input, after, 'keep');
    // Nothing to change is no change: no write, no audit event.
    if (fields.length > 0) {
      if (!(await store.update(id, withoutSecret(after), gateway.clock(), 'keep'))) {
        throw new SsogateError('entry_unknown', `no entry "${id}"`);
      }
      await changed(call, id, action, fields, {
        changes: jsonChanges(fieldChanges(before.input, after, fields)),
        ...(await endSessionsIfClosed(id, before.input, after)),
      });
    }
    return { body: { entry: await present(await stored(id)) } };
  };

  const stateRoute = (
    method: 'POST' | 'DELETE',
    suffix: 'enable' | 'disable' | 'default',
    summary: string,
    action: string,
    change: (input: EntryInput) => EntryInput,
  ) => {
    api.route(
      {
        method,
        url: `/_sso/api/entries/:id/${suffix}`,
        tag: 'entries',
        summary,
        params: entryParams,
        responses: { 200: { description: 'the entry as it is now', schema: entryAnswer } },
        errors: suffix === 'default' && method === 'POST' ? [404, 409] : [404],
      },
      (call) => write(call, call.params.id, action, change),
    );
  };

  stateRoute('POST', 'enable', 'Enable an entry', 'enable', (input) => ({
    ...input,
    enabled: true,
  }));
  // A disabled entry cannot be the default (validateEntry says so too): it
  // stops being one, and unsigned users get the chooser instead. The users
  // signed in with it are signed out.
  stateRoute(
    'POST',
    'disable',
    'Disable an entry; it also stops being the default, and its sessions end',
    'disable',
    (input) => ({
      ...input,
      enabled: false,
      isDefault: false,
    }),
  );
  stateRoute('POST', 'default', 'Make the entry the one default', 'set_default', (input) => {
    if (!input.enabled) {
      throw new SsogateError(
        'entry_default_disabled',
        `entry "${input.id}" is disabled; enable it before making it the default`,
      );
    }
    // The store clears every other default in the same transaction.
    return { ...input, isDefault: true };
  });
  stateRoute('DELETE', 'default', 'No default entry any more', 'unset_default', (input) => ({
    ...input,
    isDefault: false,
  }));

  api.route(
    {
      method: 'PUT',
      url: '/_sso/api/entry-order',
      tag: 'entries',
      summary: 'Set the order of the entries on the chooser and in the console',
      description: '`ids` lists every entry id exactly once, in the new order.',
      body: entryOrderBody,
      responses: {
        200: { description: 'the entries in their new order', schema: entryListAnswer },
      },
    },
    async (call) => {
      const { ids } = call.body;
      if (!(await store.reorder(ids))) {
        const known = (await store.list()).map((record) => record.input.id);
        throw invalidField('body.ids', orderProblem(ids, known));
      }
      await changed(call, null, 'reorder', ['position'], { order: [...ids] });
      const records = await store.list();
      return { body: { entries: await Promise.all(records.map(present)) } };
    },
  );
}

/** Says what is wrong with a proposed order, so the console can fix it. */
function orderProblem(ids: readonly string[], known: readonly string[]): string {
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) return `lists ${quoted(repeated)} more than once`;
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) return `names no entry ${quoted(unknown)}`;
  const missing = known.filter((id) => !ids.includes(id));
  return `must list every entry exactly once; missing ${quoted(missing)}`;
}

function quoted(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}
