import type { EntryInput } from '../../core/index.js';
import { SsogateError, entryInput, secretChange } from '../../core/index.js';
import { invalidField } from './api-failure.js';
import type { ApiRouter } from './api-router.js';
import { changedFields, fieldChanges, jsonChanges } from './entry-changes.js';
import { entryAnswers, validated, withoutSecret } from './entry-answers.js';
import { entryAnswer, entryListAnswer, entryWrittenAnswer } from './response-schemas.js';
import { entryParams, entryReplaceBody } from './schemas.js';
import { withKeptSecrets } from './kept-secrets.js';

/** CRUD on entries (docs/admin-api.md#entries); every write recompiles the registry and is audited. */
export function entryRoutes(api: ApiRouter): void {
  const { gateway } = api;
  const store = gateway.storage.entries;
  const { present, stored, changed, endSessionsIfClosed } = entryAnswers(gateway);

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/entries',
      tag: 'entries',
      summary: 'Every entry, in chooser order',
      responses: { 200: { description: 'the entries', schema: entryListAnswer } },
    },
    async () => {
      const records = await store.list();
      return { body: { entries: await Promise.all(records.map(present)) } };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/entries/:id',
      tag: 'entries',
      summary: 'One entry',
      params: entryParams,
      responses: { 200: { description: 'the entry', schema: entryAnswer } },
      errors: [404],
    },
    async ({ params: { id } }) => ({ body: { entry: await present(await stored(id)) } }),
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/entries',
      tag: 'entries',
      summary: 'Create an entry',
      bodyCheckedByAction: entryInput,
      responses: { 201: { description: 'created', schema: entryWrittenAnswer } },
      errors: [409],
    },
    async (call) => {
      const { input, warnings } = validated(gateway, call.rawBody);
      if (!(await store.create(input, gateway.clock()))) {
        throw new SsogateError('entry_exists', `an entry "${input.id}" exists already`);
      }
      await changed(
        call,
        input.id,
        'create',
        changedFields(
          undefined,
          input,
          secretChange(input.appsecret),
          secretChange(input.extensionSecret),
        ),
        warningsDetail(warnings),
      );
      return { status: 201, body: { entry: await present(await stored(input.id)), warnings } };
    },
  );

  api.route(
    {
      method: 'PUT',
      url: '/_sso/api/entries/:id',
      tag: 'entries',
      summary: 'Replace an entry',
      description:
        'Without `appsecret` (or with "") the stored secret is kept; `"appsecret": null` clears it.',
      params: entryParams,
      bodyCheckedByAction: entryReplaceBody,
      responses: { 200: { description: 'replaced', schema: entryWrittenAnswer } },
      errors: [404],
    },
    async (call) => {
      const { id } = call.params;
      const body = call.rawBody;
      if (!isObject(body)) throw invalidField('body', 'must be a JSON object');
      if (body.id !== undefined && body.id !== id) {
        throw invalidField(
          'id',
          `must be "${id}" as in the path, or absent: an entry's id cannot change`,
        );
      }
      const before = await stored(id);
      // Write-only secrets (src/core/entry/secret-edit.ts): validation sees
      // the kept secret, so an entry using ${app_secret} stays valid without
      // the secret being resent, as long as it calls the stored entry's
      // origins only (kept-secrets.ts).
      const secret = secretChange(body.appsecret);
      const { input, warnings } = validated(gateway, withKeptSecrets(body, before.input));
      const toStore: EntryInput = secret === 'keep' ? withoutSecret(input) : input;
      const updated = await store.update(
        id,
        toStore,
        gateway.clock(),
        secret === 'clear' ? 'clear' : 'keep',
      );
      if (!updated) throw new SsogateError('entry_unknown', `no entry "${id}"`);
      const fields = changedFields(before.input, input, secret, secretChange(body.extensionSecret));
      await changed(call, id, 'update', fields, {
        changes: jsonChanges(fieldChanges(before.input, input, fields)),
        ...warningsDetail(warnings),
        ...(await endSessionsIfClosed(id, before.input, input)),
      });
      return { body: { entry: await present(await stored(id)), warnings } };
    },
  );

  api.route(
    {
      method: 'DELETE',
      url: '/_sso/api/entries/:id',
      tag: 'entries',
      summary: 'Delete an entry; its sessions end',
      params: entryParams,
      responses: { 204: { description: 'deleted' } },
      errors: [404],
    },
    async (call) => {
      const { id } = call.params;
      const before = await stored(id);
      if (!(await store.delete(id))) throw new SsogateError('entry_unknown', `no entry "${id}"`);
      await changed(call, id, 'delete', [], await endSessionsIfClosed(id, before.input, undefined));
      return { status: 204 };
    },
  );
}

/**
 * The save's warnings (an authorizeUrl without ${state}, plain http) go into
 * the audit event: who accepted the risk, and when, stays on record.
 */
function warningsDetail(warnings: readonly string[]): Record<string, string[]> {
  return warnings.length > 0 ? { warnings: [...warnings] } : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
