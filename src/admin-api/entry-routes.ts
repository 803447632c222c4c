import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EntryInput } from '../core/index.js';
import { EntryInvalidError, SsogateError, validateEntry } from '../core/index.js';
import { audit } from '../app/audit.js';
import type { Gateway } from '../app/gateway.js';
import type { EntryRecord } from '../storage/types.js';
import { invalidField, parseInput } from './api-failure.js';
import type { ApiCall } from './api-route.js';
import { apiHandler, jsonBody } from './api-route.js';
import type { SecretChange } from './entry-changes.js';
import { changedFields } from './entry-changes.js';
import { extensionSecretChange, keptExtensionSecret } from './extension-secret-edit.js';
import { presentEntry } from './presenters.js';

const entryParams = z.strictObject({ id: z.string() });

/** CRUD on entries (SPEC 2, 9); every write recompiles the registry and is audited. */
export function entryRoutes(app: FastifyInstance, gateway: Gateway): void {
  const store = gateway.storage.entries;

  const present = async (record: EntryRecord) =>
    presentEntry(record, await store.hasSecret(record.input.id));

  const stored = async (id: string): Promise<EntryRecord> => {
    const record = await store.get(id);
    if (record === undefined) throw new SsogateError('entry_unknown', `no entry "${id}"`);
    return record;
  };

  const changed = async (call: ApiCall, id: string, action: string, fields: string[]) => {
    gateway.entries.invalidate();
    await audit(gateway, call.request, {
      kind: 'entry_change',
      outcome: 'success',
      entryId: id,
      actor: call.admin.actor,
      detail: { action, fields },
    });
  };

  app.get(
    '/_sso/api/entries',
    apiHandler(gateway, async () => {
      const records = await store.list();
      return { body: { entries: await Promise.all(records.map(present)) } };
    }),
  );

  app.get(
    '/_sso/api/entries/:id',
    apiHandler(gateway, async ({ request }) => {
      const { id } = parseInput(entryParams, request.params, 'path');
      return { body: { entry: await present(await stored(id)) } };
    }),
  );

  app.post(
    '/_sso/api/entries',
    apiHandler(gateway, async (call) => {
      const { input, warnings } = validated(jsonBody(call.request));
      if (!(await store.create(input, gateway.clock()))) {
        throw new SsogateError('entry_exists', `an entry "${input.id}" exists already`);
      }
      await changed(
        call,
        input.id,
        'create',
        changedFields(undefined, input, secretOf(input), extensionSecretChange(input)),
      );
      return { status: 201, body: { entry: await present(await stored(input.id)), warnings } };
    }),
  );

  app.put(
    '/_sso/api/entries/:id',
    apiHandler(gateway, async (call) => {
      const { id } = parseInput(entryParams, call.request.params, 'path');
      const body = jsonBody(call.request);
      if (!isObject(body)) throw invalidField('body', 'must be a JSON object');
      if (body.id !== undefined && body.id !== id) {
        throw invalidField(
          'id',
          `must be "${id}" as in the path, or absent: an entry's id cannot change`,
        );
      }
      const before = await stored(id);
      const { appsecret, ...rest } = body;
      // Write-only secret: absent (or blank, as a form sends it) keeps the
      // stored one, null clears it. Validation sees the kept secret, so an
      // entry using ${app_secret} stays valid without the secret being resent.
      const secret: SecretChange =
        appsecret === null ? 'clear' : appsecret === undefined || appsecret === '' ? 'keep' : 'set';
      const kept = secret === 'keep' ? before.input.appsecret : undefined;
      const { input, warnings } = validated({
        ...keptExtensionSecret(rest, before.input),
        id,
        ...(secret === 'set' ? { appsecret } : kept === undefined ? {} : { appsecret: kept }),
      });
      const toStore: EntryInput = secret === 'keep' ? withoutSecret(input) : input;
      const updated = await store.update(
        id,
        toStore,
        gateway.clock(),
        secret === 'clear' ? 'clear' : 'keep',
      );
      if (!updated) throw new SsogateError('entry_unknown', `no entry "${id}"`);
      await changed(
        call,
        id,
        'update',
        changedFields(before.input, input, secret, extensionSecretChange(rest)),
      );
      return { body: { entry: await present(await stored(id)), warnings } };
    }),
  );

  app.delete(
    '/_sso/api/entries/:id',
    apiHandler(gateway, async (call) => {
      const { id } = parseInput(entryParams, call.request.params, 'path');
      if (!(await store.delete(id))) throw new SsogateError('entry_unknown', `no entry "${id}"`);
      await changed(call, id, 'delete', []);
      return { status: 204 };
    }),
  );
}

/** Validates as the console and the provisioning file do, every problem at once. */
function validated(body: unknown): { input: EntryInput; warnings: readonly string[] } {
  const validation = validateEntry(body);
  if (!validation.ok) throw new EntryInvalidError(validation.problems);
  return { input: validation.entry.input, warnings: validation.warnings };
}

function secretOf(input: EntryInput): SecretChange {
  return input.appsecret === undefined ? 'keep' : 'set';
}

function withoutSecret(input: EntryInput): EntryInput {
  return { ...input, appsecret: undefined };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
