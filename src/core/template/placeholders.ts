/**
 * Which `${placeholders}` each URL template may use (docs/entries.md#placeholders). Kept as plain
 * data because the admin console displays the same matrix to administrators.
 */

export type TemplateKind =
  'authorizeUrl' | 'tokenUrl' | 'logoutUrl' | 'userInfoUrl' | 'appTokenUrl' | 'userInfoCallUrl';

export const templateKinds: readonly TemplateKind[] = [
  'authorizeUrl',
  'tokenUrl',
  'logoutUrl',
  'userInfoUrl',
  'appTokenUrl',
  'userInfoCallUrl',
];

export const builtInPlaceholders = [
  'state',
  'appid',
  'app_secret',
  'redirect_uri',
  'code',
  'access_token',
  'app_token',
] as const;

export type BuiltInPlaceholder = (typeof builtInPlaceholders)[number];

/**
 * The table of docs/entries.md#placeholders, column by column. The authorize URL is a browser redirect, so
 * it never carries `app_secret` (RFC 6749 §10.1: a client secret must not be
 * exposed to the user agent); `code` and `access_token` only exist after the
 * redirect back (RFC 6749 §4.1.2, §4.1.4).
 */
export const placeholderMatrix: Readonly<Record<TemplateKind, readonly BuiltInPlaceholder[]>> =
  Object.freeze({
    authorizeUrl: Object.freeze(['state', 'appid', 'redirect_uri'] as const),
    tokenUrl: Object.freeze(['appid', 'app_secret', 'redirect_uri', 'code'] as const),
    logoutUrl: Object.freeze(['state', 'appid', 'app_secret', 'redirect_uri'] as const),
    userInfoUrl: Object.freeze(['appid', 'access_token'] as const),
    // The two kinds of docs/entries.md#shapes-beyond-the-basic-flow: the application-token
    // call runs before any user is involved; the calls after user info run last.
    appTokenUrl: Object.freeze(['appid', 'app_secret'] as const),
    userInfoCallUrl: Object.freeze(['appid', 'access_token'] as const),
  });

/**
 * What an entry's own options change in the matrix: `${app_token}` exists
 * only with an application-token call, `${code}` reaches the user-info URL
 * only when the entry says so, and `${access_token}` is gone when the entry
 * has no token exchange. `later` names values that exist, but only once a
 * later answer arrived, so that using one too early gets its own message.
 */
export interface PlaceholderAdjustments {
  readonly grant?: readonly BuiltInPlaceholder[];
  readonly withhold?: readonly BuiltInPlaceholder[];
  readonly later?: readonly string[];
}

/** The kinds whose calls run after an answer that named values come from. */
const kindsWithNamedValues: readonly TemplateKind[] = ['userInfoUrl', 'userInfoCallUrl'];

export function isBuiltInPlaceholder(name: string): name is BuiltInPlaceholder {
  return (builtInPlaceholders as readonly string[]).includes(name);
}

/**
 * Values taken from the token response (e.g. an `openid`) only exist once the
 * token call has returned, i.e. for the user-info call; elsewhere they are not
 * allowed. A name that collides with a built-in keeps the built-in's rules.
 */
export function allowedPlaceholders(
  kind: TemplateKind,
  extra: readonly string[] = [],
  adjustments: PlaceholderAdjustments = {},
): readonly string[] {
  const withheld = adjustments.withhold ?? [];
  const allowed: string[] = [...placeholderMatrix[kind], ...(adjustments.grant ?? [])].filter(
    (name) => !(withheld as readonly string[]).includes(name),
  );
  if (kindsWithNamedValues.includes(kind)) {
    for (const name of extra) {
      if (!isBuiltInPlaceholder(name) && !allowed.includes(name)) allowed.push(name);
    }
  }
  return allowed;
}
