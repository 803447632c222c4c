import type { EntryBody, EntryView } from '../types.js';

/**
 * The form's state of an entry of type saml (docs/entries.md#saml-20-identity-providers):
 * the identity provider, the attributes read into the user, and the
 * administrators' groups, one per line.
 */
export interface SamlDraft {
  readonly ssoUrl: string;
  readonly idpEntityId: string;
  readonly idpCertificate: string;
  /** The identity provider's metadata, pasted; it stands for the three above. */
  readonly idpMetadataXml: string;
  /** Or where the gateway fetches that metadata from, and refreshes it. */
  readonly idpMetadataUrl: string;
  /** The certificate of the gateway's key for encrypted assertions (the key: the App secret). */
  readonly spCertificate: string;
  /** Kept as stored: the form has no control for it (docs/entries.md). */
  readonly wantAssertionsSigned: boolean | undefined;
  readonly spEntityId: string;
  /** Whole seconds as typed; blank: the default. */
  readonly clockSkewSeconds: string;
  readonly userIdAttribute: string;
  readonly nameAttribute: string;
  readonly emailAttribute: string;
  readonly groupsAttribute: string;
  readonly adminGroups: string;
}

export const emptySaml: SamlDraft = {
  ssoUrl: '',
  idpEntityId: '',
  idpCertificate: '',
  idpMetadataXml: '',
  idpMetadataUrl: '',
  spCertificate: '',
  wantAssertionsSigned: undefined,
  spEntityId: '',
  clockSkewSeconds: '',
  userIdAttribute: '',
  nameAttribute: '',
  emailAttribute: '',
  groupsAttribute: '',
  adminGroups: '',
};

export function samlFromEntry(view: EntryView): SamlDraft {
  const saml = view.saml;
  if (saml === undefined) return emptySaml;
  return {
    ssoUrl: saml.ssoUrl ?? '',
    idpEntityId: saml.idpEntityId ?? '',
    idpCertificate: saml.idpCertificate ?? '',
    idpMetadataXml: saml.idpMetadataXml ?? '',
    idpMetadataUrl: saml.idpMetadataUrl ?? '',
    spCertificate: saml.spCertificate ?? '',
    wantAssertionsSigned: saml.wantAssertionsSigned,
    spEntityId: saml.spEntityId ?? '',
    clockSkewSeconds: saml.clockSkewSeconds === undefined ? '' : String(saml.clockSkewSeconds),
    userIdAttribute: saml.attributes?.userId ?? '',
    nameAttribute: saml.attributes?.name ?? '',
    emailAttribute: saml.attributes?.email ?? '',
    groupsAttribute: saml.attributes?.groups ?? '',
    adminGroups: (view.groupMapping?.adminGroups ?? []).join('\n'),
  };
}

/** A preset's parameter left as the preset wrote it (presets/preset-draft.ts fillParameters). */
const unfilledParameter = /\{\{[A-Za-z][A-Za-z0-9]*\}\}/;

/** The `saml` block and the groupMapping of the admin API's body; blank fields left out. */
export function samlBody(draft: SamlDraft): Pick<EntryBody, 'saml' | 'groupMapping'> {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const attributes = Object.fromEntries(
    (
      [
        ['userId', draft.userIdAttribute],
        ['name', draft.nameAttribute],
        ['email', draft.emailAttribute],
        ['groups', draft.groupsAttribute],
      ] as const
    ).flatMap(([key, value]) => (optional(value) === undefined ? [] : [[key, value.trim()]])),
  );
  const adminGroups = draft.adminGroups
    .split('\n')
    .map((group) => group.trim())
    .filter((group) => group !== '');
  const spEntityId = optional(draft.spEntityId);
  const skew = optional(draft.clockSkewSeconds);
  const metadata = draft.idpMetadataXml.trim() === '' ? undefined : draft.idpMetadataXml;
  const metadataUrl = optional(draft.idpMetadataUrl);
  const spCertificate = draft.spCertificate.trim() === '' ? undefined : draft.spCertificate;
  // With metadata (pasted or by URL), a blank field is left to it, and so is
  // one still holding a preset's parameter nobody filled ({{issuer}},
  // presets/preset-draft.ts): the metadata stands for the three, and a
  // placeholder sent would refuse the entry (a URL, a certificate) or, as an
  // entityID, override the metadata's own. Without metadata, either is sent
  // for the core to name.
  const given = (value: string) =>
    (metadata !== undefined || metadataUrl !== undefined) &&
    (value.trim() === '' || unfilledParameter.test(value))
      ? undefined
      : value;
  const ssoUrl = given(draft.ssoUrl.trim());
  const idpEntityId = given(draft.idpEntityId.trim());
  const idpCertificate = given(draft.idpCertificate);
  return {
    saml: {
      ...(ssoUrl === undefined ? {} : { ssoUrl }),
      ...(idpEntityId === undefined ? {} : { idpEntityId }),
      ...(idpCertificate === undefined ? {} : { idpCertificate }),
      ...(metadata === undefined ? {} : { idpMetadataXml: metadata }),
      ...(metadataUrl === undefined ? {} : { idpMetadataUrl: metadataUrl }),
      ...(spCertificate === undefined ? {} : { spCertificate }),
      ...(draft.wantAssertionsSigned === undefined
        ? {}
        : { wantAssertionsSigned: draft.wantAssertionsSigned }),
      ...(spEntityId === undefined ? {} : { spEntityId }),
      // Anything but a number is sent as one the core refuses, with its field named.
      ...(skew === undefined ? {} : { clockSkewSeconds: Number(skew) }),
      ...(Object.keys(attributes).length === 0 ? {} : { attributes }),
    },
    ...(adminGroups.length === 0 ? {} : { groupMapping: { adminGroups } }),
  };
}
