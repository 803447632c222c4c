import { z } from 'zod';
import { auditKinds } from '../../foundation/storage/types.js';
import { entryInput } from '../../core/index.js';
import { shapeFieldSchemas } from './shape-fields.js';

/**
 * What the admin API answers, as schemas. The presenters build these shapes
 * field by field; the OpenAPI document describes them from here, and the
 * API tests check real answers against them. Objects are open (looseObject):
 * a client must accept fields added later.
 */

/**
 * A schema with a name, which the document lists under components.schemas
 * (zod's global registry also keeps the descriptions, so both go there).
 */
export const named = <S extends z.ZodType>(id: string, schema: S): S => schema.meta({ id });

export const isoTime = z.string().describe('ISO 8601 date-time, UTC');
const nullableIsoTime = isoTime.nullable();
const jsonObject = z.record(z.string(), z.unknown());

export const problemSchema = named(
  'Problem',
  z.looseObject({
    code: z.string().describe('a code from docs/errors.md'),
    field: z.string().describe('the field at fault: `tokenUrl`, `query.limit`, `body.ids[2]`'),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
    message: z.string(),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .describe(
        "the message's values, by name (a placeholder, the ones allowed), for a translation",
      ),
  }),
);

export const errorSchema = named(
  'Error',
  z.looseObject({
    error: z.looseObject({
      code: z.string().describe('a code from docs/errors.md'),
      message: z.string(),
      reference: z.string().optional().describe('finds the details in the server log'),
      detail: z.unknown().optional(),
      problems: z.array(problemSchema).optional(),
    }),
  }),
);

const shape = entryInput.shape;

export const entrySchema = named(
  'Entry',
  z.looseObject({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    isDefault: z.boolean(),
    appid: z.string().optional(),
    appsecretSet: z.boolean().describe('whether an appsecret is stored; the secret is write-only'),
    authorizeUrl: z.string().optional().describe('absent for type extension'),
    tokenUrl: z.string().optional().describe('absent for type extension'),
    tokenParse: z.string().optional().describe('absent for type extension'),
    logoutUrl: z.string().optional(),
    userInfoUrl: z.string().optional().describe('absent for type extension'),
    userInfoParse: shape.userInfoParse,
    pkce: z.boolean().optional(),
    tokenRequest: shape.tokenRequest,
    userInfoRequest: shape.userInfoRequest,
    tokenValues: shape.tokenValues,
    timeoutMs: z.number().int().optional(),
    provisioning: shape.provisioning,
    oidc: shape.oidc,
    oidcDiscovery: z
      .object({
        state: z.enum(['ok', 'failed', 'not_fetched']),
        fetchedAt: nullableIsoTime,
        error: z.object({ code: z.string(), message: z.string() }).nullable(),
        endpoints: z
          .object({
            authorization: z.string(),
            token: z.string(),
            userInfo: z.string().nullable(),
            jwks: z.string(),
            endSession: z.string().nullable(),
          })
          .nullable(),
      })
      .nullable()
      .optional()
      .describe(
        "an OpenID Connect entry's discovery, as this instance last fetched it (docs/entries.md#discovery); null for other entries",
      ),
    ...shapeFieldSchemas,
    revalidateMinutes: shape.revalidateMinutes,
    revalidateGraceMinutes: shape.revalidateGraceMinutes,
    type: z.enum(['oauth2', 'extension', 'ldap', 'saml']),
    saml: shape.saml,
    extensionUrl: z.string().optional(),
    extensionSettings: shape.extensionSettings,
    extensionSecretSet: z
      .boolean()
      .describe('whether an extensionSecret is stored; the secret is write-only'),
    ldap: shape.ldap,
    broken: z
      .string()
      .nullable()
      .describe(
        'null, or why the stored entry no longer compiles: it signs no one in until it is saved again, fixed',
      ),
    position: z.number().int(),
    createdAt: isoTime,
    updatedAt: isoTime,
    lastSuccessfulSignInAt: nullableIsoTime,
    lastFailedSignInAt: nullableIsoTime,
  }),
);

export const entryAnswer = z.looseObject({ entry: entrySchema });
export const entryWrittenAnswer = z.looseObject({
  entry: entrySchema,
  warnings: z.array(z.string()),
});
export const entryListAnswer = z.looseObject({ entries: z.array(entrySchema) });

export const userSchema = named(
  'User',
  z.looseObject({
    id: z.number().int(),
    userId: z.string(),
    sourceEntryId: z.string().nullable(),
    userName: z.string().nullable(),
    email: z.string().nullable(),
    mobile: z.string().nullable(),
    department: z.string().nullable(),
    enabled: z.boolean().describe('false: locked by an administrator'),
    isAdmin: z.boolean(),
    extra: jsonObject,
    createdAt: isoTime,
    updatedAt: isoTime,
    lastSignInAt: nullableIsoTime,
  }),
);

export const userAnswer = z.looseObject({ user: userSchema });
export const userPageAnswer = z.looseObject({
  users: z.array(userSchema),
  total: z.number().int().min(0),
});
export const sessionsEndedAnswer = z.looseObject({ sessionsEnded: z.number().int().min(0) });

export const auditEventSchema = named(
  'AuditEvent',
  z.looseObject({
    id: z.number().int(),
    at: isoTime,
    kind: z.enum(auditKinds),
    outcome: z.enum(['success', 'failure']),
    entryId: z.string().nullable(),
    userId: z.string().nullable(),
    actor: z.string().nullable(),
    code: z.string().nullable(),
    reference: z.string().nullable(),
    durationMs: z.number().nullable(),
    detail: jsonObject.nullable(),
  }),
);

export const auditPageAnswer = z.looseObject({
  events: z.array(auditEventSchema),
  nextBefore: z.number().int().nullable(),
});

export const apiTokenSchema = named(
  'ApiToken',
  z.looseObject({
    id: z.string(),
    name: z.string(),
    owner: z
      .looseObject({
        kind: z.enum(['user', 'service']),
        name: z.string().describe("the administrator's userId, or the service's name"),
      })
      .nullable()
      .describe(
        'whose rights it stands on: an administrator (it works only while they are one) or a named service owner (ssogate token create); null: made before owners were recorded',
      ),
    createdAt: isoTime,
    lastUsedAt: nullableIsoTime,
    revokedAt: nullableIsoTime,
    expiresAt: nullableIsoTime.describe('when it stops working by itself; null: until revoked'),
  }),
);

export const tokenListAnswer = z.looseObject({ tokens: z.array(apiTokenSchema) });
export const tokenCreatedAnswer = z.looseObject({
  token: apiTokenSchema,
  secret: z.string().describe('the token itself, shown once; only its hash is stored'),
});

export const entryValidationAnswer = z.union([
  z.looseObject({ ok: z.literal(true), warnings: z.array(z.string()) }),
  z.looseObject({ ok: z.literal(false), problems: z.array(problemSchema) }),
]);

/** POST /extension-check: the extension's /health reached in so long, or why not. */
export const extensionCheckAnswer = z.union([
  z.strictObject({ ok: z.literal(true), latencyMs: z.number() }),
  z.strictObject({
    ok: z.literal(false),
    error: z.strictObject({ code: z.string(), message: z.string() }),
  }),
]);

const maskedText = z.string().describe('masked: "***"');

/** What one line of the user-info parsing made of the sample (its text line or table row). */
const mappingLineAnswer = z.looseObject({
  attribute: z.string(),
  line: z.number().int().optional(),
  row: z.number().int().optional(),
  required: z.boolean(),
  outcome: z.enum(['mapped', 'missing', 'failed']),
  value: z.union([z.string(), z.boolean()]).optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});

export const entryTestAnswer = z.union([
  z.looseObject({
    ok: z.literal(true),
    mapping: z.array(mappingLineAnswer).optional(),
    appToken: maskedText.optional().describe('present for an entry with an application token'),
    accessToken: maskedText,
    tokenValues: z.record(z.string(), maskedText),
    values: z
      .record(z.string(), maskedText)
      .optional()
      .describe('the named values read for the next call: token values, userInfoValues, calls'),
    user: z.looseObject({
      userId: z.string(),
      userName: z.string().nullable(),
      email: z.string().nullable(),
      mobile: z.string().nullable(),
      department: z.string().nullable(),
      enabled: z.boolean().nullable(),
      extra: jsonObject,
      groups: z
        .array(z.string())
        .optional()
        .describe("the groups read by the entry's groupMapping, when it has one"),
    }),
  }),
  z.looseObject({
    ok: z.literal(false),
    step: z.enum(['entry', 'app_token', 'token', 'userinfo', 'userinfo_call']),
    call: z.string().optional().describe('the failed call after user info, by its name'),
    mapping: z.array(mappingLineAnswer).optional(),
    error: z.looseObject({
      code: z.string(),
      message: z.string(),
      field: z.string().optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
    }),
    problems: z.array(problemSchema).optional(),
  }),
]);

const placeholderList = z.array(z.string());

export const entryModelAnswer = z.looseObject({
  placeholders: z.looseObject({
    authorizeUrl: placeholderList,
    tokenUrl: placeholderList,
    logoutUrl: placeholderList,
    userInfoUrl: placeholderList,
  }),
  attributes: z.array(z.string()),
  functions: z.array(z.string()),
  kinds: z
    .array(
      z.looseObject({
        kind: z.string(),
        entryType: z.enum(['oauth2', 'extension', 'ldap', 'saml']),
        label: z.string(),
        sections: z.array(z.string()),
        testPanel: z.boolean(),
      }),
    )
    .describe(
      'the kinds of sign-in source: the type each is saved with, the sections of its form, ' +
        'whether the test panel applies',
    ),
});
