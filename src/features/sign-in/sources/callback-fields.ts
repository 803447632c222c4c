import type { CompiledEntry } from '../../../core/index.js';
import type { CallbackMethod } from './sign-in-source.js';

/** A field given exactly once, or undefined (RFC 6749 §3.1: no repeats). */
export function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * GET always; POST too when the entry asks for its callback by a posted
 * form (docs/entries.md#the-callback-by-post), whatever its kind.
 */
export function callbackMethods(entry: CompiledEntry): readonly CallbackMethod[] {
  return entry.responseMode === 'form_post' ? ['GET', 'POST'] : ['GET'];
}
