interface PagerProps {
  readonly offset: number;
  readonly pageSize: number;
  readonly total: number;
  readonly onChange: (offset: number) => void;
}

/** "1–25 of 80" with Previous and Next. */
export function Pager({ offset, pageSize, total, onChange }: PagerProps) {
  const last = Math.min(offset + pageSize, total);
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="button secondary small"
        disabled={offset === 0}
        onClick={() => {
          onChange(Math.max(0, offset - pageSize));
        }}
      >
        Previous
      </button>
      <span>
        {total === 0 ? 0 : offset + 1}–{last} of {total}
      </span>
      <button
        type="button"
        className="button secondary small"
        disabled={last >= total}
        onClick={() => {
          onChange(offset + pageSize);
        }}
      >
        Next
      </button>
    </nav>
  );
}
