export type {
  CompiledCall,
  CompiledEntry,
  CompiledExtension,
  CompiledExtensionEntry,
  CompiledOAuth2Entry,
  CompiledTokenCall,
  ProvisioningPolicy,
  TokenValue,
} from './compiled-entry.js';
export { defaultProvisioning, defaultTimeoutMs } from './compiled-entry.js';
export type { EntryInput } from './entry-input.js';
export type {
  CompiledAppToken,
  CompiledShapes,
  CompiledUserInfoCall,
  NamedValue,
} from './compile-shapes.js';
export type { ExtensionTargetCheck } from './compile-extension.js';
export { minExtensionSecretLength, validateExtensionTarget } from './compile-extension.js';
export {
  entryIdPattern,
  entryInput,
  extensionSettingName,
  reservedEntryIds,
} from './entry-input.js';
export { EntryInvalidError, describeProblem, fieldPath } from './entry-problems.js';
export type { MappingSource } from './mapping-text.js';
export { parseMappingText, printMappingText } from './mapping-text.js';
export { entryCallOrigins, entryCallUrls } from './call-urls.js';
export type { SecretChange } from './secret-edit.js';
export { secretAfter, secretChange, withSecretAfter } from './secret-edit.js';
export type { EntryValidation } from './validate-entry.js';
export { compileEntry, compileOAuth2Entry, validateEntry } from './validate-entry.js';
