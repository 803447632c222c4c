import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  /** Loads again (after a change), keeping the current data until the answer. */
  readonly reload: () => void;
}

/**
 * Loads data for a page. `load` must be stable (useCallback): a new
 * function loads again, and the answer of an earlier load is dropped.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<unknown>();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        setData(value);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failure);
      },
    );
    return () => {
      controller.abort();
    };
  }, [load, version]);
  const reload = useCallback(() => {
    setVersion((value) => value + 1);
  }, []);
  return { data, error, reload };
}
