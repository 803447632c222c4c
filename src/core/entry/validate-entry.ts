import { SsogateError } from '../errors/ssogate-error.js';
import { builtInPlaceholders, renderUrl } from '../template/index.js';
import type { CompiledEntry, CompiledOAuth2Entry, TokenValue } from './compiled-entry.js';
import { compileCall, compileTemplateField } from './compile-call.js';
import { compileExtension } from './compile-extension.js';
import type { EntryValidation } from './validate-common.js';
import { checkCombinations, commonFields } from './validate-common.js';
import { validateSamlEntry } from './validate-saml-entry.js';
import { ProblemList, asArray, asRecord, compileExpression, textField } from './compile-fields.js';
import { compileMappings } from './compile-mappings.js';
import { compileGroupMapping } from './group-mapping.js';
import { compileLdap } from './ldap-entry.js';
import {
  compileShapes,
  hasTokenExchange,
  laterValueNames,
  shapeAdjustments,
} from './compile-shapes.js';
import { entryInput } from './entry-input.js';
import { EntryInvalidError, problemsFromSchema } from './entry-problems.js';
import type { OidcDiscovery } from '../oidc/discovery.js';
import { readOidc } from './oidc-entry.js';
import { compileRevalidation } from './revalidation.js';

interface ValidateOptions {
  /** The provider's metadata, for an OpenID Connect entry; absent, the issuer stands in. */
  readonly discovery?: OidcDiscovery | undefined;
}

const tokenValueName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The fields an OAuth2 entry cannot do without; an extension entry ignores them. */
const oauth2RequiredFields = ['authorizeUrl', 'tokenUrl', 'tokenParse', 'userInfoUrl'] as const;

/**
 * Validates and compiles an entry as the API, the console or the provisioning
 * file sends it (docs/entries.md). Every problem is reported at once, each naming
 * its field and position; nothing is thrown for bad input.
 */
export function validateEntry(input: unknown, options: ValidateOptions = {}): EntryValidation {
  const problems = new ProblemList();
  const shape = entryInput.safeParse(input);
  if (!shape.success) problems.addAll(problemsFromSchema(shape.error));

  // The meaning of each text field is checked even when other fields failed
  // their shape, so an administrator sees every problem in one round.
  const given = asRecord(input);
  if (given.type === 'extension') return validateExtensionEntry(shape, given, problems);
  if (given.type === 'ldap') return validateLdapEntry(shape, given, problems);
  if (given.type === 'saml') return validateSamlEntry(shape, given, problems);
  // An OpenID Connect entry is read with the templates discovery writes for
  // the fields left empty (oidc-entry.ts); the stored input stays as given.
  const oidc = readOidc(given, options.discovery, problems);
  const raw = oidc === undefined ? given : oidc.filled;
  const tokenExchange = hasTokenExchange(raw);
  for (const field of oauth2RequiredFields) {
    // Without a token exchange (codeInUserInfo), tokenParse has nothing to read.
    if (!tokenExchange && field === 'tokenParse') continue;
    if (field === 'tokenUrl' && !tokenExchange) continue;
    if (raw[field] === undefined || raw[field] === '') problems.field(field, 'is required');
  }
  const adjustments = shapeAdjustments(raw);
  const tokenValues = compileTokenValues(raw.tokenValues, problems);
  const tokenValueNames = tokenValues.map(({ name }) => name);

  const authorize = compileTemplateField(
    textField(raw, 'authorizeUrl'),
    'authorizeUrl',
    'authorizeUrl',
    problems,
  );
  if (authorize !== undefined) {
    checkNoFragment(authorize, problems);
    checkResponseMode(authorize, raw.responseMode, problems);
  }
  const logout = compileTemplateField(
    textField(raw, 'logoutUrl'),
    'logoutUrl',
    'logoutUrl',
    problems,
  );
  const tokenCall = compileCall(
    raw,
    {
      urlField: 'tokenUrl',
      optionsField: 'tokenRequest',
      kind: 'tokenUrl',
      extraPlaceholders: [],
      adjustments: adjustments.tokenUrl,
    },
    problems,
  );
  const userInfo = compileCall(
    raw,
    {
      urlField: 'userInfoUrl',
      optionsField: 'userInfoRequest',
      kind: 'userInfoUrl',
      extraPlaceholders: tokenValueNames,
      adjustments: { ...adjustments.userInfoUrl, later: laterValueNames(raw) },
    },
    problems,
  );
  const shapes = compileShapes(raw, tokenValueNames, problems);
  const groupMapping = compileGroupMapping(raw, problems);
  const tokenParseSource = textField(raw, 'tokenParse');
  const tokenParse =
    tokenParseSource === undefined
      ? undefined
      : compileExpression(tokenParseSource, 'tokenParse', problems);
  const userInfoParse = compileMappings(raw.userInfoParse, problems);

  if (!shape.success || problems.items.length > 0) return { ok: false, problems: problems.items };
  const entry = shape.data;
  // The call options discovery filled in count as the administrator's own.
  const tokenRequest =
    oidc === undefined ? entry.tokenRequest : entryInput.safeParse(raw).data?.tokenRequest;

  const clientAuthentication = tokenRequest?.clientAuthentication ?? 'none';
  if (clientAuthentication === 'basic' && entry.appid === undefined) {
    problems.field('appid', 'is required for HTTP Basic client authentication');
  }
  if (oidc !== undefined && entry.appid === undefined) {
    problems.field('appid', 'is required for OpenID Connect: it is the audience of the id_token');
  }
  checkCombinations(entry, problems);
  const revalidation = compileRevalidation(
    entry,
    oidc?.compiled,
    shapes?.codeInUserInfo ?? false,
    problems,
  );
  if (
    clientAuthentication === 'basic' &&
    tokenRequest?.headers?.some(({ name }) => name.toLowerCase() === 'authorization') === true
  ) {
    problems.field(
      'tokenRequest.headers',
      'an Authorization header cannot be combined with HTTP Basic client authentication',
      'header_invalid',
    );
  }
  if (
    problems.items.length > 0 ||
    authorize === undefined ||
    (tokenExchange && (tokenCall === undefined || tokenParse === undefined)) ||
    userInfo === undefined ||
    shapes === undefined
  ) {
    return { ok: false, problems: problems.items };
  }

  const compiled: CompiledOAuth2Entry = {
    ...commonFields(entry),
    type: 'oauth2',
    authorize,
    token: tokenCall === undefined ? undefined : { ...tokenCall, clientAuthentication },
    tokenParse,
    tokenValues,
    userInfo,
    userInfoParse,
    logout,
    pkce: entry.pkce ?? false,
    oidc: oidc?.compiled,
    revalidation,
    shapes,
    groupMapping,
  };
  return { ok: true, entry: compiled, warnings: warningsFor(compiled) };
}

/**
 * An entry of type extension (docs/extension.md#the-entry): the OAuth2 templates and expressions
 * are neither required nor read (the console may keep them while the type is
 * switched); the extension's URL and secret are.
 */
function validateExtensionEntry(
  shape: ReturnType<typeof entryInput.safeParse>,
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): EntryValidation {
  const extension = compileExtension(raw, shape.data?.extensionSettings, problems);
  if (shape.success) checkCombinations(shape.data, problems);
  if (!shape.success || problems.items.length > 0 || extension === undefined) {
    return { ok: false, problems: problems.items };
  }
  const warnings = extension.url.startsWith('http:')
    ? ['the extension is called over plain http: its answers carry user attributes unencrypted']
    : [];
  return {
    ok: true,
    entry: { ...commonFields(shape.data), type: 'extension', extension },
    warnings,
  };
}

/**
 * An entry of type ldap (docs/entries.md#ldap-directories): its `ldap` block,
 * the service account's password as `appsecret`, and an optional groupMapping
 * over the user's attributes and `groups`.
 */
function validateLdapEntry(
  shape: ReturnType<typeof entryInput.safeParse>,
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): EntryValidation {
  const ldap = compileLdap(raw, problems);
  const groupMapping = compileGroupMapping(raw, problems);
  if (shape.success) checkCombinations(shape.data, problems);
  if (!shape.success || problems.items.length > 0 || ldap === undefined) {
    return { ok: false, problems: problems.items };
  }
  const warnings =
    ldap.url.startsWith('ldap:') && !ldap.startTls
      ? [
          'the directory is reached over plain ldap:// without StartTLS: passwords cross the network unencrypted',
        ]
      : [];
  return {
    ok: true,
    entry: { ...commonFields(shape.data), type: 'ldap', ldap, groupMapping },
    warnings,
  };
}

/** compileEntry for callers that run the OAuth2 steps themselves: throws unless the type is oauth2. */
export function compileOAuth2Entry(input: unknown): CompiledOAuth2Entry {
  const entry = compileEntry(input);
  if (entry.type !== 'oauth2') {
    throw new EntryInvalidError([
      new SsogateError('field_invalid', 'must be oauth2 here', { field: 'type' }),
    ]);
  }
  return entry;
}

/** validateEntry for callers that want an exception: throws EntryInvalidError. */
export function compileEntry(input: unknown, options: ValidateOptions = {}): CompiledEntry {
  const result = validateEntry(input, options);
  if (!result.ok) throw new EntryInvalidError(result.problems);
  return result.entry;
}

function compileTokenValues(raw: unknown, problems: ProblemList): TokenValue[] {
  const values: TokenValue[] = [];
  const seen = new Set<string>();
  asArray(raw).forEach((item, index) => {
    const field = `tokenValues[${index}]`;
    const { name, expression: source } = asRecord(item);
    if (typeof name !== 'string' || typeof source !== 'string') return;
    if (!tokenValueName.test(name)) {
      problems.field(
        `${field}.name`,
        'must be a name of letters, digits and _ not starting with a digit',
      );
      return;
    }
    if ((builtInPlaceholders as readonly string[]).includes(name) || seen.has(name)) {
      problems.field(`${field}.name`, `'${name}' is already a placeholder name`);
      return;
    }
    seen.add(name);
    const expression = compileExpression(source, `${field}.expression`, problems);
    if (expression !== undefined) values.push({ name, expression });
  });
  return values;
}

/**
 * RFC 6749 §3.1: the authorization endpoint URI MUST NOT include a fragment;
 * the gateway also appends PKCE parameters to its query.
 */
function checkNoFragment(authorize: CompiledOAuth2Entry['authorize'], problems: ProblemList): void {
  const sample = Object.fromEntries([...authorize.placeholders].map((name) => [name, 'x']));
  if (new URL(renderUrl(authorize, sample)).hash !== '') {
    problems.field(
      'authorizeUrl',
      'must not contain a fragment (#...): RFC 6749 §3.1; a fragment the provider documents ' +
        '(#wechat_redirect) goes in authorizeFragment, which is kept last after the query',
    );
  }
}

/**
 * An authorization URL that names its own `response_mode` must agree with
 * `responseMode`: a server told `form_post` posts to a callback that would
 * otherwise refuse the POST, and one told anything else never posts.
 */
function checkResponseMode(
  authorize: CompiledOAuth2Entry['authorize'],
  responseMode: unknown,
  problems: ProblemList,
): void {
  const sample = Object.fromEntries([...authorize.placeholders].map((name) => [name, 'x']));
  const written = new URL(renderUrl(authorize, sample)).searchParams.get('response_mode');
  if (written === null) return;
  if (written === 'form_post' && responseMode !== 'form_post') {
    problems.field(
      'responseMode',
      'must be form_post: authorizeUrl asks the server for response_mode=form_post',
    );
  } else if (written !== 'form_post' && responseMode === 'form_post') {
    problems.field(
      'authorizeUrl',
      `asks for response_mode=${written}, but responseMode is form_post (leave response_mode out: the gateway appends it)`,
    );
  }
}

function warningsFor(entry: CompiledOAuth2Entry): string[] {
  const warnings: string[] = [];
  if (!entry.authorize.placeholders.has('state') && !entry.pkce) {
    warnings.push(
      'authorizeUrl has no ${state}: the sign-in is still bound to the browser by a cookie, ' +
        'but enable PKCE if the server supports it (RFC 9700 §2.1)',
    );
  }
  const templates = [
    entry.authorize,
    entry.token?.template,
    entry.userInfo.template,
    entry.logout,
    entry.shapes.appToken?.template,
    ...entry.shapes.userInfoCalls.map((call) => call.template),
  ];
  if (templates.some((template) => template?.source.replace(/^POST /, '').startsWith('http:'))) {
    warnings.push(
      'the entry uses plain http: codes and tokens would cross the network unencrypted',
    );
  }
  return warnings;
}
