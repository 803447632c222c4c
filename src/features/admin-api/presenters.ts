import type { JsonValue } from '../../core/index.js';
import { entryTypeOf } from '../../core/index.js';
import { compileProblem } from '../../foundation/entries/entry-registry.js';
import { presentShapeFields } from './shape-fields.js';
import type {
  ApiTokenRecord,
  AuditEvent,
  EntryRecord,
  UserRecord,
} from '../../foundation/storage/types.js';

/**
 * What the admin API sends, field by field. Each presenter
 * names the fields it copies, so a field added to a record later (or the
 * entry's appsecret, or a user's password hash) is never sent by accident.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

/** An entry as its input fields, without `appsecret` (write-only: docs/design.md#the-entry). */
export function presentEntry(record: EntryRecord, appsecretSet: boolean): Record<string, unknown> {
  const input = record.input;
  return {
    id: input.id,
    name: input.name,
    enabled: input.enabled,
    isDefault: input.isDefault === true,
    appid: input.appid,
    appsecretSet,
    authorizeUrl: input.authorizeUrl,
    tokenUrl: input.tokenUrl,
    tokenParse: input.tokenParse,
    logoutUrl: input.logoutUrl,
    userInfoUrl: input.userInfoUrl,
    userInfoParse: input.userInfoParse,
    pkce: input.pkce,
    tokenRequest: input.tokenRequest,
    userInfoRequest: input.userInfoRequest,
    tokenValues: input.tokenValues,
    timeoutMs: input.timeoutMs,
    provisioning: input.provisioning,
    oidc: input.oidc,
    revalidateMinutes: input.revalidateMinutes,
    revalidateGraceMinutes: input.revalidateGraceMinutes,
    ...presentShapeFields(input),
    type: entryTypeOf(input),
    extensionUrl: input.extensionUrl,
    extensionSettings: input.extensionSettings,
    // Write-only like appsecret: whether one is stored, never its value.
    extensionSecretSet: input.extensionSecret !== undefined,
    // An LDAP entry's directory; its service account's password is the write-only appsecret.
    ldap: input.ldap,
    // A stored entry the engine no longer compiles signs no one in; shown, not hidden.
    broken: compileProblem(input) ?? null,
    position: record.position,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  };
}

/** A user, never its password hash. */
export function presentUser(user: UserRecord): Record<string, JsonValue> {
  return {
    id: user.id,
    userId: user.userId,
    sourceEntryId: user.sourceEntryId,
    userName: user.userName,
    email: user.email,
    mobile: user.mobile,
    department: user.department,
    enabled: user.enabled,
    isAdmin: user.isAdmin,
    extra: user.extra,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
    lastSignInAt: user.lastSignInAt === null ? null : iso(user.lastSignInAt),
  };
}

/** An audit event: every field (they are masked when written), times as ISO. */
export function presentAuditEvent(event: AuditEvent): Record<string, JsonValue> {
  return {
    id: event.id,
    at: iso(event.at),
    kind: event.kind,
    outcome: event.outcome,
    entryId: event.entryId,
    userId: event.userId,
    actor: event.actor,
    code: event.code,
    reference: event.reference,
    durationMs: event.durationMs,
    detail: event.detail,
  };
}

/** An API token's name, owner and times; never the token or its hash. */
export function presentApiToken(token: ApiTokenRecord): Record<string, JsonValue> {
  const { owner } = token;
  return {
    id: token.id,
    name: token.name,
    owner:
      owner === null
        ? null
        : owner.kind === 'user'
          ? { kind: 'user', name: owner.userId }
          : { kind: 'service', name: owner.name },
    createdAt: iso(token.createdAt),
    lastUsedAt: token.lastUsedAt === null ? null : iso(token.lastUsedAt),
    revokedAt: token.revokedAt === null ? null : iso(token.revokedAt),
    expiresAt: token.expiresAt === null ? null : iso(token.expiresAt),
  };
}
