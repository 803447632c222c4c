/** Masking and excerpts for text that goes to logs, messages and pages. */
export { escapeControl, excerpt } from './excerpt.js';
export { MASK, maskSecrets } from './mask.js';
export { isSensitiveKey } from './sensitive-key.js';
