import type { EntryBody, EntryView } from '../types.js';
import { numberOrText, withoutUndefined } from './body-parts.js';

/**
 * An LDAP entry's directory as the form holds it (docs/entries.md#ldap-directories):
 * every field as typed. The service account's password is the entry's App
 * secret, in the general fields.
 */
export interface LdapDraft {
  readonly url: string;
  readonly startTls: boolean;
  readonly caCertificate: string;
  readonly bindDn: string;
  readonly userDnTemplate: string;
  readonly baseDn: string;
  readonly userFilter: string;
  readonly groupFilter: string;
  readonly groupBaseDn: string;
  readonly nestedGroups: boolean;
  readonly userIdAttribute: string;
  readonly nameAttribute: string;
  readonly emailAttribute: string;
  readonly memberOfAttribute: string;
  readonly connectTimeoutMs: string;
  readonly poolSize: string;
  readonly poolIdleMs: string;
  readonly poolWaitMs: string;
  /** The groupMapping's expression, over the directory's answer. */
  readonly groupsExpression: string;
  /** The groupMapping's administrator groups, one per line. */
  readonly adminGroups: string;
}

/** The text fields of the `ldap` block, as the form lays them out. */
export const ldapTextFields = [
  'url',
  'bindDn',
  'userDnTemplate',
  'baseDn',
  'userFilter',
  'groupFilter',
  'groupBaseDn',
  'userIdAttribute',
  'nameAttribute',
  'emailAttribute',
  'memberOfAttribute',
  'connectTimeoutMs',
  'poolSize',
  'poolIdleMs',
  'poolWaitMs',
  'caCertificate',
] as const;

export const emptyLdap: LdapDraft = {
  url: '',
  startTls: false,
  caCertificate: '',
  bindDn: '',
  userDnTemplate: '',
  baseDn: '',
  userFilter: '(&(objectClass=person)(uid={username}))',
  groupFilter: '',
  groupBaseDn: '',
  nestedGroups: false,
  userIdAttribute: '',
  nameAttribute: '',
  emailAttribute: '',
  memberOfAttribute: '',
  connectTimeoutMs: '',
  poolSize: '',
  poolIdleMs: '',
  poolWaitMs: '',
  groupsExpression: '',
  adminGroups: '',
};

export function ldapFromEntry(view: EntryView): LdapDraft {
  const ldap = view.ldap;
  // Another kind's entry: the form's new directory, should its type be switched.
  if (ldap === undefined) return emptyLdap;
  const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));
  return {
    url: text(ldap.url),
    startTls: ldap.startTls ?? false,
    caCertificate: text(ldap.caCertificate),
    bindDn: text(ldap.bindDn),
    userDnTemplate: text(ldap.userDnTemplate),
    baseDn: text(ldap.baseDn),
    userFilter: text(ldap.userFilter),
    groupFilter: text(ldap.groupFilter),
    groupBaseDn: text(ldap.groupBaseDn),
    nestedGroups: ldap.nestedGroups ?? false,
    userIdAttribute: text(ldap.userIdAttribute),
    nameAttribute: text(ldap.nameAttribute),
    emailAttribute: text(ldap.emailAttribute),
    memberOfAttribute: text(ldap.memberOfAttribute),
    connectTimeoutMs: text(ldap.connectTimeoutMs),
    poolSize: text(ldap.poolSize),
    poolIdleMs: text(ldap.poolIdleMs),
    poolWaitMs: text(ldap.poolWaitMs),
    groupsExpression: view.groupMapping?.expression ?? '',
    adminGroups: (view.groupMapping?.adminGroups ?? []).join('\n'),
  };
}

/** The `ldap` block and the groupMapping of the admin API's body. */
export function ldapBody(draft: LdapDraft): Pick<EntryBody, 'ldap' | 'groupMapping'> {
  const optional = (value: string) => (value.trim() === '' ? undefined : value);
  const adminGroups = draft.adminGroups
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const timeout = numberOrText(draft.connectTimeoutMs);
  return withoutUndefined<Pick<EntryBody, 'ldap' | 'groupMapping'>>({
    ldap: withoutUndefined<NonNullable<EntryBody['ldap']>>({
      url: draft.url,
      ...(draft.startTls ? { startTls: true } : {}),
      caCertificate: optional(draft.caCertificate),
      bindDn: optional(draft.bindDn),
      userDnTemplate: optional(draft.userDnTemplate),
      baseDn: draft.baseDn,
      userFilter: optional(draft.userFilter),
      groupFilter: optional(draft.groupFilter),
      groupBaseDn: optional(draft.groupBaseDn),
      ...(draft.nestedGroups ? { nestedGroups: true } : {}),
      userIdAttribute: optional(draft.userIdAttribute),
      nameAttribute: optional(draft.nameAttribute),
      emailAttribute: optional(draft.emailAttribute),
      memberOfAttribute: optional(draft.memberOfAttribute),
      // The text typed when it is no whole number, so the core says what is wrong with it.
      connectTimeoutMs: timeout as number | undefined,
      poolSize: numberOrText(draft.poolSize) as number | undefined,
      poolIdleMs: numberOrText(draft.poolIdleMs) as number | undefined,
      poolWaitMs: numberOrText(draft.poolWaitMs) as number | undefined,
    }),
    groupMapping:
      optional(draft.groupsExpression) === undefined
        ? undefined
        : {
            expression: draft.groupsExpression,
            ...(adminGroups.length === 0 ? {} : { adminGroups }),
          },
  });
}
