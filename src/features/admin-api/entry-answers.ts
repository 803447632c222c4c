import type { EntryInput, EntryValidation, JsonValue } from '../../core/index.js';
import {
  EntryInvalidError,
  SsogateError,
  discoveryIssuerOf,
  validateEntry,
} from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { addressPolicy } from '../../foundation/outbound/address-policy.js';
import { entryAddressProblems } from '../../foundation/outbound/entry-addresses.js';
import type { EntryRecord } from '../../foundation/storage/types.js';
import type { ApiCall } from './api-route.js';
import { presentEntry } from './presenters.js';
import { endSignInsOf } from '../sessions/end-sign-ins.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What every entry route needs: read, present, and record a change. */
interface EntryAnswers {
  /** The entry as the API sends it, with its last sign-ins from the audit trail. */
  readonly present: (record: EntryRecord) => Promise<Record<string, unknown>>;
  /** The stored entry, or entry_unknown. */
  readonly stored: (id: string) => Promise<EntryRecord>;
  /**
   * After a write: the next sign-in compiles the entries again (here and,
   * through the change notifier, on every instance), and the audit log
   * records who changed which fields; never a secret's value.
   */
  readonly changed: (
    call: ApiCall,
    id: string | null,
    action: string,
    fields: readonly string[],
    more?: Readonly<Record<string, JsonValue>>,
  ) => Promise<void>;
  /**
   * After a write that disabled or deleted an entry: ends the sessions
   * signed in with it, on every instance at once (resolveSession refuses
   * them too, once the change notice arrives), and says how many for the
   * audit event. Nothing for any other write.
   */
  readonly endSessionsIfClosed: (
    id: string,
    before: EntryInput,
    after: EntryInput | undefined,
  ) => Promise<Record<string, JsonValue>>;
}

export function entryAnswers(gateway: Gateway): EntryAnswers {
  const store = gateway.storage.entries;
  const stored = async (id: string): Promise<EntryRecord> => {
    const record = await store.get(id);
    if (record === undefined) throw new SsogateError('entry_unknown', `no entry "${id}"`);
    return record;
  };
  return {
    stored,
    async present(record) {
      const id = record.input.id;
      const [secretSet, last, oidcDiscovery] = await Promise.all([
        store.hasSecret(id),
        gateway.storage.audit.lastSignIns(id),
        discoveryStatus(gateway, record.input),
      ]);
      return {
        ...presentEntry(record, secretSet),
        oidcDiscovery,
        lastSuccessfulSignInAt: iso(last.success),
        lastFailedSignInAt: iso(last.failure),
      };
    },
    async endSessionsIfClosed(id, before, after) {
      if (after !== undefined && !(before.enabled && !after.enabled)) return {};
      return {
        sessionsEnded: await endSignInsOf(gateway, { entryId: id }, 'entry_sessions_ended'),
      };
    },
    async changed(call, id, action, fields, more = {}) {
      gateway.entries.invalidate();
      await audit(gateway, call.request, {
        kind: 'entry_change',
        outcome: 'success',
        entryId: id,
        actor: call.admin.actor,
        detail: { action, fields: [...fields], ...more },
      });
    },
  };
}

/**
 * Validates as the console and the provisioning file do, every problem at
 * once, the outbound address policy included (SSOGATE_OUTBOUND_ALLOW).
 */
export function validated(
  gateway: Gateway,
  body: unknown,
): { input: EntryInput; warnings: readonly string[] } {
  const validation = validatedForSaving(gateway, body);
  if (!validation.ok) throw new EntryInvalidError(validation.problems);
  return { input: validation.entry.input, warnings: validation.warnings };
}

/** validateEntry, then the hosts the entry would make the gateway call. */
export function validatedForSaving(gateway: Gateway, body: unknown): EntryValidation {
  const validation = validateEntry(body);
  if (!validation.ok) return validation;
  const refused = entryAddressProblems(
    validation.entry,
    addressPolicy(gateway.config.outboundAllow),
  );
  return refused.length === 0 ? validation : { ok: false, problems: refused };
}

/** The input as stored, without its secret: `update` then keeps the stored one. */
export function withoutSecret(input: EntryInput): EntryInput {
  return { ...input, appsecret: undefined };
}

/**
 * An OpenID Connect entry's discovery as this instance knows it, fetched
 * first when it never was (cached a day: docs/entries.md#discovery); null
 * for other entries.
 */
async function discoveryStatus(
  gateway: Gateway,
  input: EntryInput,
): Promise<Record<string, JsonValue> | null> {
  const issuer = discoveryIssuerOf(input);
  if (issuer === undefined) return null;
  await gateway.oidc.discovery(issuer).catch(() => {
    // The failure is what the status shows.
  });
  const status = gateway.oidc.status(issuer);
  return {
    state: status.state,
    fetchedAt: status.fetchedAt === null ? null : new Date(status.fetchedAt).toISOString(),
    error: status.error === null ? null : { ...status.error },
    endpoints: status.endpoints === null ? null : { ...status.endpoints },
  };
}
