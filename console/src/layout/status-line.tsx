export interface Status {
  readonly kind: 'info' | 'success' | 'error';
  readonly text: string;
}

/**
 * The outcome of the last action, read out by screen readers (a polite live
 * region that is always in the page, so its changes are announced).
 */
export function StatusLine({ status }: { readonly status: Status | undefined }) {
  return (
    <div className="status-region" role="status" aria-live="polite">
      {status === undefined ? null : (
        <p className={`status status-${status.kind}`}>{status.text}</p>
      )}
    </div>
  );
}
