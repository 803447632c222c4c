export type {
  CompiledCall,
  CompiledEntry,
  CompiledTokenCall,
  ProvisioningPolicy,
  TokenValue,
} from './compiled-entry.js';
export { defaultProvisioning, defaultTimeoutMs } from './compiled-entry.js';
export type { EntryInput } from './entry-input.js';
export { entryIdPattern, entryInput, reservedEntryIds } from './entry-input.js';
export { EntryInvalidError, describeProblem, fieldPath } from './entry-problems.js';
export type { MappingSource } from './mapping-text.js';
export { parseMappingText, printMappingText } from './mapping-text.js';
export type { EntryValidation } from './validate-entry.js';
export { compileEntry, validateEntry } from './validate-entry.js';
