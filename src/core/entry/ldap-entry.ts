import { z } from 'zod';
import { SsogateError } from '../errors/ssogate-error.js';
import { createEvaluationContext } from '../expression/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import { mapUser } from '../user/map-user.js';
import type { CompiledEntry, CompiledLdapEntry } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord, textField } from './compile-fields.js';
import type { CompiledGroupMapping } from './group-mapping.js';
import { readGroups } from './group-mapping.js';

/**
 * An LDAP or Active Directory entry's own fields (docs/entries.md#ldap-directories),
 * the `ldap` block of an entry of type `ldap`. The service account's
 * password is the entry's `appsecret`: write-only and sealed at rest like
 * every entry secret.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const optionalText = (max: number) =>
  text(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

export const ldapInput = z.strictObject({
  /** `ldap://host[:port]` or `ldaps://host[:port]`, nothing after the port. */
  url: text(2048),
  /** Upgrade an `ldap://` connection with StartTLS (RFC 4511 §4.14) before any bind. */
  startTls: z.boolean().optional(),
  /** PEM certificates the directory's certificate must chain to, instead of the system's. */
  caCertificate: optionalText(64 * 1024),
  /** The service account that searches for the user (RFC 4514 DN); or `userDnTemplate`. */
  bindDn: optionalText(1024),
  /**
   * The user's own DN holding `{username}`, replaced escaped (RFC 4514 §2.4):
   * the user binds directly, without a service account and search.
   */
  userDnTemplate: optionalText(1024),
  /** Where users are searched, the whole subtree. */
  baseDn: text(1024),
  /** An RFC 4515 filter holding `{username}`, replaced by the typed name, escaped. */
  userFilter: optionalText(1024),
  /** A filter holding `{dn}` finding the user's groups; absent, the user's memberOf is read. */
  groupFilter: optionalText(1024),
  /** Follow groups that are members of groups (Active Directory's nesting); needs `groupFilter`. */
  nestedGroups: z.boolean().optional(),
  /** Where groups are searched; the baseDn when absent. */
  groupBaseDn: optionalText(1024),
  userIdAttribute: optionalText(64),
  nameAttribute: optionalText(64),
  emailAttribute: optionalText(64),
  /** The attribute of the user naming their groups' DNs (Active Directory's memberOf). */
  memberOfAttribute: optionalText(64),
  /** The time allowed to open the connection (TLS included); the operations have `timeoutMs`. */
  connectTimeoutMs: z.number().int().min(100).max(60_000).optional(),
  /** At most this many connections bound as the service account are kept open and lent to sign-ins. */
  poolSize: z.number().int().min(1).max(64).optional(),
  /** A pooled connection unused this long is closed. */
  poolIdleMs: z.number().int().min(1000).max(3_600_000).optional(),
  /** A sign-in waits at most this long for a pooled connection when all are lent. */
  poolWaitMs: z.number().int().min(100).max(60_000).optional(),
});

/** An entry of type ldap, or undefined for any other type. */
export function ldapOf(entry: CompiledEntry): CompiledLdapEntry | undefined {
  return entry.type === 'ldap' ? entry : undefined;
}

/**
 * How the user's DN is found: a service account binds and searches with the
 * user filter, or the user's DN is written from a template and bound directly.
 */
type LdapUserLookup =
  | {
      readonly kind: 'search';
      readonly bindDn: string;
      /** The entry's appsecret. */
      readonly bindPassword: string;
      readonly userFilter: string;
    }
  | { readonly kind: 'template'; readonly userDnTemplate: string };

export interface CompiledLdap {
  readonly url: string;
  readonly startTls: boolean;
  readonly caCertificate: string | undefined;
  readonly lookup: LdapUserLookup;
  readonly baseDn: string;
  readonly groupFilter: string | undefined;
  /** Groups found by the group filter are searched for again, to this depth. */
  readonly nestedGroups: boolean;
  readonly groupBaseDn: string;
  readonly userIdAttribute: string;
  readonly nameAttribute: string;
  readonly emailAttribute: string;
  readonly memberOfAttribute: string;
  readonly connectTimeoutMs: number;
  /** The service account's connections kept for the user search (with `bindDn` only). */
  readonly pool: LdapPoolLimits;
}

interface LdapPoolLimits {
  readonly size: number;
  readonly idleMs: number;
  readonly waitMs: number;
}

const defaultConnectTimeoutMs = 5_000;
const defaultPool: LdapPoolLimits = { size: 4, idleMs: 60_000, waitMs: 5_000 };

/** RFC 4512 §1.4 attribute descriptions: a keystring or a numeric OID. */
const attributeName = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/;

/**
 * Checks the `ldap` block of an entry of type ldap and compiles it, or
 * returns undefined with its problems added.
 */
export function compileLdap(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): CompiledLdap | undefined {
  const before = problems.items.length;
  const block = asRecord(raw.ldap);
  if (raw.ldap === undefined) problems.field('ldap', 'is required for an entry of type ldap');
  const url = checkUrl(textField(block, 'url'), problems);
  const startTls = block.startTls === true;
  if (startTls && url?.startsWith('ldaps:') === true) {
    problems.field(
      'ldap.startTls',
      'cannot be combined with ldaps://: the connection is TLS already',
    );
  }
  const caCertificate = textField(block, 'caCertificate');
  if (caCertificate !== undefined && !caCertificate.includes('-----BEGIN CERTIFICATE-----')) {
    problems.field('ldap.caCertificate', 'must be PEM certificates (-----BEGIN CERTIFICATE-----)');
  }
  const lookup = checkLookup(raw, block, problems);
  const baseDn = checkDn(block, 'baseDn', problems);
  const groupBaseDn =
    textField(block, 'groupBaseDn') === undefined
      ? baseDn
      : checkDn(block, 'groupBaseDn', problems);
  const groupFilter =
    textField(block, 'groupFilter') === undefined
      ? undefined
      : checkFilter(block, 'groupFilter', 'dn', problems);
  const nestedGroups = block.nestedGroups === true;
  if (nestedGroups && textField(block, 'groupFilter') === undefined) {
    problems.field(
      'ldap.nestedGroups',
      "needs a groupFilter: nested groups are found by searching again with each group's DN",
    );
  }
  const attribute = (field: string, fallback: string): string => {
    const value = textField(block, field) ?? fallback;
    if (!attributeName.test(value)) {
      problems.add(
        new SsogateError('field_invalid', 'must be an attribute name (RFC 4512 §1.4)', {
          field: `ldap.${field}`,
        }),
      );
    }
    return value;
  };
  const compiled = {
    userIdAttribute: attribute('userIdAttribute', 'uid'),
    nameAttribute: attribute('nameAttribute', 'cn'),
    emailAttribute: attribute('emailAttribute', 'mail'),
    memberOfAttribute: attribute('memberOfAttribute', 'memberOf'),
  };
  if (
    problems.items.length > before ||
    url === undefined ||
    lookup === undefined ||
    baseDn === undefined ||
    groupBaseDn === undefined
  ) {
    return undefined;
  }
  return {
    url,
    startTls,
    caCertificate,
    lookup,
    baseDn,
    groupFilter,
    nestedGroups,
    groupBaseDn,
    ...compiled,
    connectTimeoutMs:
      typeof block.connectTimeoutMs === 'number' ? block.connectTimeoutMs : defaultConnectTimeoutMs,
    pool: {
      size: typeof block.poolSize === 'number' ? block.poolSize : defaultPool.size,
      idleMs: typeof block.poolIdleMs === 'number' ? block.poolIdleMs : defaultPool.idleMs,
      waitMs: typeof block.poolWaitMs === 'number' ? block.poolWaitMs : defaultPool.waitMs,
    },
  };
}

/**
 * Exactly one way of finding the user: `bindDn` (with the appsecret and a
 * userFilter) or `userDnTemplate`.
 */
function checkLookup(
  raw: Readonly<Record<string, unknown>>,
  block: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): LdapUserLookup | undefined {
  const template = textField(block, 'userDnTemplate');
  if (template === undefined) {
    if (textField(block, 'bindDn') === undefined) {
      problems.field(
        'ldap.bindDn',
        'is required, or a userDnTemplate for a direct bind without a service account',
      );
      return undefined;
    }
    const bindDn = checkDn(block, 'bindDn', problems);
    const userFilter = checkFilter(block, 'userFilter', 'username', problems);
    const bindPassword = textField(raw, 'appsecret');
    if (bindPassword === undefined) {
      problems.field(
        'appsecret',
        "is required for an entry of type ldap with a bindDn: the service account's password",
      );
    }
    if (bindDn === undefined || userFilter === undefined || bindPassword === undefined) {
      return undefined;
    }
    return { kind: 'search', bindDn, bindPassword, userFilter };
  }
  for (const field of ['bindDn', 'userFilter']) {
    if (textField(block, field) !== undefined) {
      problems.field(
        `ldap.${field}`,
        'cannot be combined with userDnTemplate: the user is found either by a search or by a template',
      );
    }
  }
  const sample = template.split('{username}').join('x');
  if (!template.includes('{username}') || /\{[A-Za-z]+\}/.test(sample)) {
    problems.add(
      new SsogateError(
        'ldap_dn_invalid',
        'must hold {username} once or more, where the typed username goes, and no other placeholder',
        { field: 'ldap.userDnTemplate' },
      ),
    );
    return undefined;
  }
  if (!isDistinguishedName(sample)) {
    problems.add(
      new SsogateError(
        'ldap_dn_invalid',
        'is not a distinguished name (RFC 4514) once {username} is written in, such as uid={username},ou=people,dc=example,dc=org',
        { field: 'ldap.userDnTemplate' },
      ),
    );
    return undefined;
  }
  return { kind: 'template', userDnTemplate: template };
}

function checkUrl(source: string | undefined, problems: ProblemList): string | undefined {
  if (source === undefined) {
    problems.field('ldap.url', 'is required: ldap://host:389 or ldaps://host:636');
    return undefined;
  }
  const url = URL.canParse(source) ? new URL(source) : undefined;
  if (url === undefined || !/^ldaps?:$/.test(url.protocol) || url.hostname === '') {
    problems.field('ldap.url', 'must be ldap://host[:port] or ldaps://host[:port]');
    return undefined;
  }
  if (
    url.username !== '' ||
    url.password !== '' ||
    !['', '/'].includes(url.pathname) ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    problems.field(
      'ldap.url',
      'must name only the scheme, host and port: the base DN and filter are fields of their own',
    );
    return undefined;
  }
  // The port always written out (RFC 4516 §2: 389, 636 for ldaps), so the
  // origin that is checked and reported is the one connected to.
  const port = url.port === '' ? (url.protocol === 'ldaps:' ? '636' : '389') : url.port;
  return `${url.protocol}//${url.hostname}:${port}`;
}

function checkDn(
  block: Readonly<Record<string, unknown>>,
  field: string,
  problems: ProblemList,
): string | undefined {
  const value = textField(block, field);
  if (value === undefined) {
    problems.field(`ldap.${field}`, 'is required');
    return undefined;
  }
  if (!isDistinguishedName(value)) {
    problems.add(
      new SsogateError(
        'ldap_dn_invalid',
        'is not a distinguished name (RFC 4514), such as ou=people,dc=example,dc=org',
        { field: `ldap.${field}` },
      ),
    );
    return undefined;
  }
  return value;
}

function checkFilter(
  block: Readonly<Record<string, unknown>>,
  field: string,
  placeholder: 'username' | 'dn',
  problems: ProblemList,
): string | undefined {
  const value = textField(block, field);
  if (value === undefined) {
    problems.field(`ldap.${field}`, `is required, such as (&(objectClass=person)(uid={username}))`);
    return undefined;
  }
  const problem = filterProblem(value, placeholder);
  if (problem !== undefined) {
    problems.add(new SsogateError('ldap_filter_invalid', problem, { field: `ldap.${field}` }));
    return undefined;
  }
  return value;
}

/**
 * RFC 4514 §3: one or more RDNs separated by commas, each one or more
 * `type=value` joined by `+`; a type is a keystring or a numeric OID, a value
 * is a `#` hex string or a string whose special characters are escaped.
 */
const attributeType = String.raw`(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)*)`;
const pairEscape = String.raw`\\(?:[ "#+,;<=>\\]|[0-9A-Fa-f]{2})`;
const stringValue = String.raw`(?:(?:[^\\"+,;<>\s#=]|${pairEscape})(?:(?:[^\\"+,;<>=]|${pairEscape})*(?:[^\\"+,;<>\s=]|${pairEscape}))?)?`;
const attributeValue = String.raw`(?:#(?:[0-9A-Fa-f]{2})+|${stringValue})`;
const rdn = String.raw`${attributeType}=${attributeValue}(?:\+${attributeType}=${attributeValue})*`;
const distinguishedName = new RegExp(String.raw`^${rdn}(?:,${rdn})*$`);

function isDistinguishedName(value: string): boolean {
  return value.length <= 1024 && distinguishedName.test(value.replace(/,\s+/g, ','));
}

/**
 * Why `template` is not an RFC 4515 filter holding `{placeholder}`, or
 * undefined. Each `{placeholder}` stands for an assertion value (it is
 * replaced escaped, escapeFilterValue), so it is checked as one.
 */
function filterProblem(template: string, placeholder: 'username' | 'dn'): string | undefined {
  const marker = `{${placeholder}}`;
  if (!template.includes(marker))
    return `must hold ${marker}, where the ${placeholder === 'username' ? 'typed username' : "user's DN"} goes`;
  const other = /\{([A-Za-z]+)\}/.exec(template.split(marker).join('x'));
  if (other !== null) return `names {${other[1]}}; only ${marker} is replaced here`;
  const sample = template.split(marker).join('x');
  return parseFilter(sample)
    ? undefined
    : 'is not an LDAP filter (RFC 4515), such as (&(objectClass=person)(uid={username}))';
}

/**
 * RFC 4515 §3 extensible match: `attr[:dn][:rule]:=` or `[:dn]:rule:=`, such
 * as Active Directory's `(member:1.2.840.113556.1.4.1941:={dn})` (a group
 * member at any depth) or `(userAccountControl:1.2.840.113556.1.4.803:=2)`.
 */
const descriptor = String.raw`(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)`;
const extensibleMatch = new RegExp(
  String.raw`^(?:${descriptor}(?:;[A-Za-z0-9-]+)*(?::dn)?(?::${descriptor})?|(?::dn)?:${descriptor}):=`,
  'i',
);

/** RFC 4515 §3 filter syntax, recursively: ( and / or / not / item ). */
function parseFilter(text: string): boolean {
  let position = 0;
  const filter = (depth: number): boolean => {
    if (depth > 32 || text[position] !== '(') return false;
    position += 1;
    const operator = text[position];
    if (operator === '&' || operator === '|') {
      position += 1;
      let count = 0;
      while (text[position] === '(') {
        if (!filter(depth + 1)) return false;
        count += 1;
      }
      if (count === 0) return false;
    } else if (operator === '!') {
      position += 1;
      if (!filter(depth + 1)) return false;
    } else if (!item()) {
      return false;
    }
    if (text[position] !== ')') return false;
    position += 1;
    return true;
  };
  const item = (): boolean => {
    const rest = text.slice(position);
    const match =
      extensibleMatch.exec(rest) ??
      /^([A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)(?:;[A-Za-z0-9-]+)*(~=|>=|<=|=)/.exec(rest);
    if (match === null) return false;
    position += match[0].length;
    const start = position;
    while (position < text.length && text[position] !== ')') {
      const character = text[position] ?? '';
      if (character === '(' || character === '\0') return false;
      if (character === '\\') {
        if (!/^[0-9A-Fa-f]{2}$/.test(text.slice(position + 1, position + 3))) return false;
        position += 3;
      } else {
        position += 1;
      }
    }
    // `attr=` with nothing after it is an empty equality value, which RFC 4515 allows.
    return position >= start;
  };
  return filter(0) && position === text.length;
}

/**
 * RFC 4515 §3: a value placed in a filter has `*`, `(`, `)`, `\` and NUL
 * escaped as `\XX`, so a username can never add to or end the filter.
 */
function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (character) => {
    return `\\${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** The filter template with its `{placeholder}` replaced by `value`, escaped. */
export function renderFilter(
  template: string,
  placeholder: 'username' | 'dn',
  value: string,
): string {
  return template.split(`{${placeholder}}`).join(escapeFilterValue(value));
}

/**
 * RFC 4514 §2.4: a value placed in a DN has `"`, `+`, `,`, `;`, `<`, `>`,
 * `\`, a leading space or `#` and a trailing space escaped with a backslash,
 * and NUL as `\00`; `=` is escaped too (§3 allows it as a pair), so a
 * username can never add an RDN or an attribute to the DN.
 */
function escapeDnValue(value: string): string {
  // Code points: only ASCII characters are escaped, and a trailing space is one.
  const characters = Array.from(value);
  const last = characters.length - 1;
  return characters
    .map((character, index) => {
      if (character === '\0') return '\\00';
      if (/["+,;<>=\\]/.test(character)) return `\\${character}`;
      if ((character === ' ' || character === '#') && index === 0) return `\\${character}`;
      if (character === ' ' && index === last) return '\\ ';
      return character;
    })
    .join('');
}

/** The user DN template with its `{username}` replaced by `username`, escaped. */
export function renderUserDn(template: string, username: string): string {
  return template.split('{username}').join(escapeDnValue(username));
}

/** What the directory said of a user who signed in (src/features/ldap-directory/). */
export interface DirectoryAnswer {
  readonly dn: string;
  readonly attributes: Readonly<Record<string, string | readonly string[]>>;
  readonly groupDns: readonly string[];
}

/**
 * The user a directory's answer describes: userId, userName and email from
 * the entry's attributes, and the groups of its groupMapping, evaluated over
 * `$response`, which holds `user` (the mapped attributes), `dn`,
 * `attributes` (as read), `groups` (the value of each group DN's first RDN:
 * `cn=engineers,ou=groups,...` is `engineers`) and `groupDns`.
 */
export function mapDirectoryUser(
  ldap: CompiledLdap,
  groupMapping: CompiledGroupMapping | undefined,
  answer: DirectoryAnswer,
): MappedUser {
  const first = (name: string): string | undefined => {
    const value = answer.attributes[name];
    return typeof value === 'string' ? value : value?.[0];
  };
  const userId = first(ldap.userIdAttribute);
  const userName = first(ldap.nameAttribute);
  const email = first(ldap.emailAttribute);
  const response = {
    user: {
      ...(userId === undefined ? {} : { userId }),
      ...(userName === undefined ? {} : { userName }),
      ...(email === undefined ? {} : { email }),
    },
    dn: answer.dn,
    attributes: answer.attributes,
    groups: [...new Set(answer.groupDns.map(firstRdnValue))],
    groupDns: answer.groupDns,
  };
  const context = createEvaluationContext(JSON.stringify(response));
  const mapped = mapUser([], context);
  return groupMapping === undefined
    ? mapped
    : { ...mapped, groups: readGroups(groupMapping, context) };
}

/** `cn=engineers,ou=groups,dc=example,dc=org` → `engineers`, its RFC 4514 escapes undone. */
function firstRdnValue(dn: string): string {
  const match = /^[^=]+=((?:\\.|[^,+\\])*)/.exec(dn);
  const value = match?.[1] ?? dn;
  return value.replace(/\\([0-9A-Fa-f]{2}|.)/g, (_, escaped: string) =>
    escaped.length === 2 ? String.fromCharCode(parseInt(escaped, 16)) : escaped,
  );
}
