/**
 * A module imported on first use rather than with the gateway, so that a
 * configuration that never needs it never loads it
 * (src/app/unused-modules.test.ts), and imported once: every `await import()`
 * asks the module loader to resolve the specifier and look the module up in
 * its map again, which a request path would pay at each call. The first
 * call's promise is kept and shared, also by calls made while it loads; a
 * failed import is not kept, so the next call tries again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/** undici, the client of every call to a third-party server: loaded with the first call. */
export const loadUndici = lazyModule(() => import('undici'));
