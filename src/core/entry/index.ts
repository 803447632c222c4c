export type {
  CompiledCall,
  CompiledEntry,
  CompiledExtension,
  CompiledExtensionEntry,
  CompiledLdapEntry,
  CompiledOAuth2Entry,
  CompiledSaml,
  CompiledSamlEntry,
  ProvisioningPolicy,
  TokenValue,
} from './compiled-entry.js';
export { defaultProvisioning, defaultTimeoutMs } from './compiled-entry.js';
export type { EntryInput } from './entry-input.js';
export type { AdminGroups, CompiledGroupMapping } from './group-mapping.js';
export type { CompiledShapes, CompiledUserInfoCall, NamedValue } from './compile-shapes.js';
export { validateExtensionTarget } from './compile-extension.js';
export { entryIdPattern, entryInput, extensionSettingName } from './entry-input.js';
export { EntryInvalidError, describeProblem, fieldPath } from './entry-problems.js';
export type { MappingSource } from './mapping-text.js';
export { parseMappingText, printMappingText } from './mapping-text.js';
export { entryCallOrigins, entryCallUrls } from './call-urls.js';
export { discoveryIssuerOf, entryTypeOf } from './entry-kind.js';
export { readCertificate, samlOf, sendsAppsecret } from './saml-entry.js';
export type { SecretChange } from './secret-edit.js';
export { secretAfter, secretChange, withSecretAfter } from './secret-edit.js';
export type { CompiledLdap, DirectoryAnswer } from './ldap-entry.js';
export { ldapOf, mapDirectoryUser, renderFilter, renderUserDn } from './ldap-entry.js';
export type { EntryValidation } from './validate-common.js';
export { compileEntry, compileOAuth2Entry, validateEntry } from './validate-entry.js';
