import type { entryInput } from './entry-input.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord } from './compile-fields.js';
import type { AdminGroups } from './group-mapping.js';
import { readAdminGroups } from './group-mapping.js';
import { compileSaml } from './saml-entry.js';
import type { EntryValidation } from './validate-common.js';
import { checkCombinations, commonFields } from './validate-common.js';

/**
 * An entry of type saml (docs/entries.md#saml-20-identity-providers): the
 * OAuth2 templates and expressions are neither required nor read; the
 * `saml` block is. The groups are the values of the attribute
 * `saml.attributes.groups` names, so `groupMapping` gives only the
 * administrators' groups.
 */
export function validateSamlEntry(
  shape: ReturnType<typeof entryInput.safeParse>,
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): EntryValidation {
  const saml = compileSaml(raw, problems);
  let groupMapping: AdminGroups | undefined;
  if (raw.groupMapping !== undefined) {
    const mapping = asRecord(raw.groupMapping);
    if (mapping.expression !== undefined) {
      problems.field(
        'groupMapping.expression',
        'is not read for an entry of type saml: the groups are the attribute saml.attributes.groups names',
      );
    }
    if (saml !== undefined && saml.attributes.groups === undefined) {
      problems.field(
        'saml.attributes.groups',
        'is required with groupMapping: it names the attribute that holds the groups',
      );
    }
    groupMapping = { adminGroups: readAdminGroups(mapping) };
  }
  if (shape.success) checkCombinations(shape.data, problems);
  if (!shape.success || problems.items.length > 0 || saml === undefined) {
    return { ok: false, problems: problems.items };
  }
  const warnings = saml.ssoUrl?.startsWith('http:')
    ? [
        'the identity provider is reached over plain http: its answers carry user attributes unencrypted',
      ]
    : [];
  return {
    ok: true,
    entry: { ...commonFields(shape.data), type: 'saml', saml, groupMapping },
    warnings,
  };
}
