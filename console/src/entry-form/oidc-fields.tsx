import { useI18n } from '../i18n/language';
import type { EntryView, Problem } from '../types';
import type { EntryDraft } from './entry-draft';
import { problemsOf } from './entry-draft';
import type { Disclosure } from './form-section';
import { FormSection } from './form-section';
import { TextField } from './text-field';

interface OidcFieldsProps {
  readonly draft: EntryDraft;
  readonly discovery: EntryView['oidcDiscovery'];
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<EntryDraft>) => void;
  readonly disclosure: Disclosure;
}

/**
 * The issuer of an OpenID Connect entry, and what discovery found there
 * (docs/entries.md#openid-connect): the URLs left blank below are filled
 * from the provider's endpoints.
 */
export function OidcFields({ draft, discovery, problems, onChange, disclosure }: OidcFieldsProps) {
  const o = useI18n().t.entryForm.oidc;
  const own = problemsOf(problems, 'oidc', true);
  return (
    <FormSection
      name="oidc"
      title={o.legend}
      filled={draft.oidcIssuer.trim() !== ''}
      problemCount={own.length}
      {...disclosure}
    >
      <TextField
        field="oidc.issuer"
        label={o.issuer}
        type="url"
        code
        value={draft.oidcIssuer}
        hint={o.issuerHint}
        onChange={(oidcIssuer) => {
          onChange({ oidcIssuer });
        }}
        problems={own}
      />
      {discovery === null || discovery === undefined ? null : (
        <p className="hint" id="oidc-discovery-status">
          {discovery.state === 'ok'
            ? o.found(discovery.fetchedAt ?? '', discovery.endpoints?.token ?? '')
            : discovery.state === 'failed'
              ? o.failed(discovery.error?.code ?? '', discovery.error?.message ?? '')
              : o.notFetched}
        </p>
      )}
    </FormSection>
  );
}
