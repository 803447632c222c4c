import type { EntryView, Problem } from '../types';
import type { EntryDraft } from './entry-draft';
import { problemsOf } from './entry-draft';
import { TextField } from './text-field';

interface OidcFieldsProps {
  readonly draft: EntryDraft;
  readonly discovery: EntryView['oidcDiscovery'];
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<EntryDraft>) => void;
}

/**
 * The issuer of an OpenID Connect entry, and what discovery found there
 * (docs/entries.md#openid-connect): the URLs left blank below are filled
 * from the provider's endpoints.
 */
export function OidcFields({ draft, discovery, problems, onChange }: OidcFieldsProps) {
  return (
    <fieldset className="section">
      <legend>OpenID Connect (optional)</legend>
      <TextField
        field="oidc.issuer"
        label="Issuer"
        type="url"
        code
        value={draft.oidcIssuer}
        hint="With an issuer, the URLs left blank below come from the provider's discovery, and the id_token is verified."
        onChange={(oidcIssuer) => {
          onChange({ oidcIssuer });
        }}
        problems={problemsOf(problems, 'oidc', true)}
      />
      {discovery === null || discovery === undefined ? null : (
        <p className="hint" id="oidc-discovery-status">
          {discovery.state === 'ok'
            ? `Discovery: found (${discovery.fetchedAt ?? ''}); token endpoint ${discovery.endpoints?.token ?? ''}`
            : discovery.state === 'failed'
              ? `Discovery failed: ${discovery.error?.code ?? ''} ${discovery.error?.message ?? ''}`
              : 'Discovery: not fetched yet'}
        </p>
      )}
    </fieldset>
  );
}
