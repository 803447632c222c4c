import type { z } from 'zod';
import type {
  apiTokenSchema,
  auditEventSchema,
  auditPageAnswer,
  entryListAnswer,
  entryAnswer,
  entryModelAnswer,
  entrySchema,
  entryTestAnswer,
  entryValidationAnswer,
  extensionCheckAnswer,
  oidcClientAnswer,
  oidcClientListAnswer,
  oidcClientSecretAnswer,
  problemSchema,
  sessionsEndedAnswer,
  tokenCreatedAnswer,
  tokenListAnswer,
  userPageAnswer,
  userSchema,
} from '../../src/features/admin-api/response-schemas.js';
import type {
  oidcClientCreateBody,
  oidcClientSettings,
} from '../../src/features/admin-api/oidc-clients.js';
import type { auditQuery, entryReplaceBody } from '../../src/features/admin-api/schemas.js';

/**
 * The admin API's shapes as the console reads and sends them, derived from
 * the server's own schemas (src/features/admin-api/response-schemas.ts and
 * schemas.ts, which also make GET /_sso/api/openapi.json): a field the server
 * renames or drops fails the console's typecheck. The imports are type-only,
 * so neither the server's code nor zod is bundled into the console.
 *
 * Answers are open objects (a client accepts fields added later), so
 * derive a narrower type with Pick, never with Omit: Omit of an open object
 * keeps only its index signature.
 */

export type EntryView = z.infer<typeof entrySchema>;
export type EntryAnswer = z.infer<typeof entryAnswer>;
export type EntryList = z.infer<typeof entryListAnswer>;

/**
 * An entry as the console sends it to create or replace one (`z.input`: what
 * a client writes, before the server trims and fills defaults). Two fields
 * differ from the schema, both on purpose:
 * - `extensionSecret: null` clears the stored secret; the route reads it from
 *   the raw body (src/features/admin-api/kept-secrets.ts), the schema does
 *   not describe it.
 * - `timeoutMs` and the re-validation minutes may be the text typed when it
 *   is not a whole number, so the core answers with what is wrong with it
 *   instead of the form guessing.
 */
export type EntryBody = Omit<
  z.input<typeof entryReplaceBody>,
  'extensionSecret' | 'timeoutMs' | 'revalidateMinutes' | 'revalidateGraceMinutes'
> & {
  extensionSecret?: string | null;
  timeoutMs?: number | string;
  revalidateMinutes?: number | string;
  revalidateGraceMinutes?: number | string;
};

export type EntryModel = z.infer<typeof entryModelAnswer>;

/**
 * A test sign-in's trace as GET /_sso/api/test-sign-ins/{id} answers it: the
 * gateway's own types (its schema leaves the steps open), imported type-only
 * like the schemas above.
 */
export type { TraceAnswer } from '../../src/features/trial-sign-in/trace-types.js';

/** The templates the entry model lists placeholders for. */
export type TemplateKind = keyof (typeof entryModelAnswer)['shape']['placeholders']['shape'];

/** A problem as the API reports it, with its code from docs/errors.md. */
export type ApiProblem = z.infer<typeof problemSchema>;

/**
 * A problem the form shows: the API's, or one the form finds itself
 * (extension-settings.ts settingsProblems), which has no code.
 */
export type Problem = Pick<ApiProblem, 'field' | 'message' | 'line' | 'column'> &
  Partial<Pick<ApiProblem, 'code' | 'params'>>;

export type ValidationResult = z.infer<typeof entryValidationAnswer>;

export type TestResult = z.infer<typeof entryTestAnswer>;
export type TestUser = Extract<TestResult, { ok: true }>['user'];

export type CheckResult = z.infer<typeof extensionCheckAnswer>;

export type UserView = z.infer<typeof userSchema>;
export type UserPage = z.infer<typeof userPageAnswer>;
export type SessionsEnded = z.infer<typeof sessionsEndedAnswer>;

export type AuditEventView = z.infer<typeof auditEventSchema>;
export type AuditEventPage = z.infer<typeof auditPageAnswer>;
/** GET /audit's query parameters, as a client writes them (text). */
export type AuditQuery = z.input<typeof auditQuery>;

export type ApiTokenView = z.infer<typeof apiTokenSchema>;
export type TokenList = z.infer<typeof tokenListAnswer>;
export type TokenCreated = z.infer<typeof tokenCreatedAnswer>;

/** An application of the gateway's OpenID Provider (an OpenID client), as the API shows it. */
export type ApplicationView = OidcClientAnswer['client'];
type OidcClientAnswer = z.infer<typeof oidcClientAnswer>;
export type ApplicationList = z.infer<typeof oidcClientListAnswer>;
/** The answer that made an application or rotated its secret: the secret, this once. */
export type ApplicationSecretAnswer = z.infer<typeof oidcClientSecretAnswer>;
/** An application's settings as PUT replaces them, and as POST makes one with its id and kind. */
export type ApplicationSettingsBody = z.input<typeof oidcClientSettings>;
export type ApplicationCreateBody = z.input<typeof oidcClientCreateBody>;

/**
 * GET /_sso/me, the signed-in user's name for the top bar. Kept here: it is
 * the portal's route (src/features/portal/routes.ts), outside the admin API, and has
 * no schema to derive from.
 */
export interface Me {
  readonly userId: string;
  readonly userName: string | null;
}
