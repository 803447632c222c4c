/**
 * The admin API's shapes as the console reads them (docs/admin-api.md and
 * GET /_sso/api/openapi.json). Only the fields the console uses are named.
 */

export interface HeaderView {
  readonly name: string;
  readonly value: string;
}

export interface NamedExpressionView {
  readonly name: string;
  readonly expression: string;
}

export interface MappingView {
  readonly attribute: string;
  readonly expression: string;
}

export interface CallOptionsView {
  readonly headers?: readonly HeaderView[];
  readonly bodyEncoding?: 'json' | 'form';
  readonly successCondition?: string;
  readonly clientAuthentication?: 'none' | 'basic';
}

export interface EntryView {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly isDefault: boolean;
  readonly type?: 'oauth2' | 'extension';
  readonly appid?: string;
  readonly appsecretSet: boolean;
  readonly authorizeUrl?: string;
  readonly tokenUrl?: string;
  readonly tokenParse?: string;
  readonly logoutUrl?: string;
  readonly userInfoUrl?: string;
  readonly userInfoParse?: readonly MappingView[] | string;
  readonly pkce?: boolean;
  readonly tokenRequest?: CallOptionsView;
  readonly userInfoRequest?: CallOptionsView;
  readonly tokenValues?: readonly NamedExpressionView[];
  readonly timeoutMs?: number;
  readonly provisioning?: {
    readonly createUsers?: boolean;
    readonly updateOnSignIn?: boolean;
    readonly adoptExistingUsers?: boolean;
    readonly userIdScope?: 'global' | 'entry';
  };
  readonly extensionUrl?: string;
  readonly extensionSecretSet?: boolean;
  readonly extensionSettings?: Readonly<Record<string, string>>;
  readonly lastSuccessfulSignInAt?: string | null;
  readonly lastFailedSignInAt?: string | null;
}

export type TemplateKind = 'authorizeUrl' | 'tokenUrl' | 'logoutUrl' | 'userInfoUrl';

export interface EntryModel {
  readonly placeholders: Readonly<Record<TemplateKind, readonly string[]>>;
  readonly attributes: readonly string[];
  readonly functions: readonly string[];
}

/** One problem of an entry, as validateEntry reports it. */
export interface Problem {
  readonly field: string;
  readonly message: string;
  readonly code?: string;
  readonly line?: number;
  readonly column?: number;
}

export type ValidationResult =
  | { readonly ok: true; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly Problem[] };

export interface TestUser {
  readonly userId: string;
  readonly userName?: string | null;
  readonly email?: string | null;
  readonly mobile?: string | null;
  readonly department?: string | null;
  readonly enabled?: boolean | null;
  readonly extra?: Readonly<Record<string, unknown>> | null;
}

export type TestResult =
  | {
      readonly ok: true;
      readonly accessToken: string;
      readonly tokenValues?: Readonly<Record<string, string>>;
      readonly user: TestUser;
    }
  | {
      readonly ok: false;
      readonly step: 'entry' | 'token' | 'userinfo';
      readonly error: {
        readonly code: string;
        readonly message: string;
        readonly line?: number;
        readonly column?: number;
      };
      readonly problems?: readonly Problem[];
    };

export type CheckResult =
  | { readonly ok: true; readonly latencyMs: number }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

export interface UserView {
  readonly id: number;
  readonly userId: string;
  readonly sourceEntryId: string | null;
  readonly userName: string | null;
  readonly email: string | null;
  readonly enabled: boolean;
  readonly isAdmin: boolean;
  readonly lastSignInAt: string | null;
}

export interface AuditEventView {
  readonly id: number;
  readonly at: string;
  readonly kind: string;
  readonly outcome: 'success' | 'failure';
  readonly entryId: string | null;
  readonly userId: string | null;
  readonly actor: string | null;
  readonly code: string | null;
  readonly reference: string | null;
  readonly detail: Readonly<Record<string, unknown>> | null;
}

export interface ApiTokenView {
  readonly id: number | string;
  readonly name: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export interface Me {
  readonly userId: string;
  readonly userName: string | null;
}
