import { useEffect, useState } from 'react';
import { api, describeFailure } from '../api';
import type { EntryBody, ValidationResult } from '../types';

export interface ValidationState {
  readonly checking: boolean;
  readonly result: ValidationResult | undefined;
  readonly failure: string | undefined;
}

const debounceMs = 400;

/**
 * Live validation with the core's own rules (POST /_sso/api/entry-validation),
 * once typing pauses. An answer that arrives after a newer change is dropped:
 * each change aborts the call before it.
 */
export function useValidation(
  body: EntryBody,
  existingId: string | undefined,
  active: boolean,
): ValidationState {
  const [state, setState] = useState<ValidationState>({
    checking: false,
    result: undefined,
    failure: undefined,
  });
  const key = JSON.stringify(body);
  useEffect(() => {
    if (!active) return undefined;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setState((previous) => ({ ...previous, checking: true }));
      const entry = JSON.parse(key) as Record<string, unknown>;
      api<ValidationResult>('POST', '/entry-validation', {
        body: { ...entry, ...(existingId === undefined ? {} : { existingId }) },
        signal: controller.signal,
      }).then(
        (result) => {
          setState({ checking: false, result, failure: undefined });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState((previous) => ({
            ...previous,
            checking: false,
            failure: describeFailure(error),
          }));
        },
      );
    }, debounceMs);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key, existingId, active]);
  return state;
}
