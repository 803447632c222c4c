import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import { problemsOf } from './entry-draft';
import type { SamlDraft } from './saml-draft';
import { TextField } from './text-field';

interface SamlFieldsProps {
  /** The stored entry's id, whose metadata URL is shown; none for a new entry. */
  readonly entryId: string | undefined;
  readonly saml: SamlDraft;
  readonly problems: readonly Problem[];
  readonly onChange: (change: { saml: SamlDraft }) => void;
}

/**
 * An entry of type saml (docs/entries.md#saml-20-identity-providers): the
 * identity provider's single sign-on URL, entityID and signing certificate,
 * or where its metadata is fetched from, the gateway's own entityID and
 * encryption certificate, the attributes read into the user, and the
 * metadata URL to give the provider's administrator.
 */
export function SamlFields({ entryId, saml, problems, onChange }: SamlFieldsProps) {
  const words = useI18n().t.entryForm;
  const x = words.saml;
  const set = (change: Partial<SamlDraft>) => {
    onChange({ saml: { ...saml, ...change } });
  };
  const metadataUrl =
    entryId === undefined
      ? undefined
      : `${window.location.origin}/_sso/saml/${encodeURIComponent(entryId)}/metadata`;
  const fromMetadata = saml.idpMetadataXml.trim() !== '' || saml.idpMetadataUrl.trim() !== '';
  const field = (
    name: Exclude<keyof SamlDraft, 'wantAssertionsSigned'>,
    apiField: string,
    options: { required?: boolean; multiline?: boolean; hint?: string; url?: boolean } = {},
  ) => (
    <TextField
      field={apiField}
      label={words.fields[apiField as keyof typeof words.fields]}
      value={saml[name]}
      code
      {...(options.required === true ? { required: true } : {})}
      {...(options.multiline === true ? { multiline: true } : {})}
      {...(options.url === true ? { type: 'url' as const } : {})}
      onChange={(value) => {
        set({ [name]: value });
      }}
      problems={problemsOf(problems, apiField)}
      {...(options.hint === undefined ? {} : { hint: <p>{options.hint}</p> })}
    />
  );
  return (
    <fieldset className="section">
      <legend>{x.legend}</legend>
      {metadataUrl === undefined ? (
        <p>{x.metadataAfterSave}</p>
      ) : (
        <p>
          {x.metadata} <code>{metadataUrl}</code>
        </p>
      )}
      {field('idpMetadataUrl', 'saml.idpMetadataUrl', { url: true, hint: x.metadataUrlHint })}
      {field('idpMetadataXml', 'saml.idpMetadataXml', { multiline: true })}
      {field('ssoUrl', 'saml.ssoUrl', { required: !fromMetadata, url: true, hint: x.ssoUrlHint })}
      {field('idpEntityId', 'saml.idpEntityId', { required: !fromMetadata })}
      {field('idpCertificate', 'saml.idpCertificate', {
        required: !fromMetadata,
        multiline: true,
        hint: x.certificateHint,
      })}
      {field('spEntityId', 'saml.spEntityId', { hint: x.spEntityIdHint })}
      {field('spCertificate', 'saml.spCertificate', {
        multiline: true,
        hint: x.spCertificateHint,
      })}
      {field('clockSkewSeconds', 'saml.clockSkewSeconds', { hint: x.clockSkewHint })}
      {field('userIdAttribute', 'saml.attributes.userId', { hint: x.userIdHint })}
      {field('nameAttribute', 'saml.attributes.name')}
      {field('emailAttribute', 'saml.attributes.email')}
      {field('groupsAttribute', 'saml.attributes.groups')}
      {field('adminGroups', 'groupMapping.adminGroups', {
        multiline: true,
        hint: x.adminGroupsHint,
      })}
    </fieldset>
  );
}
