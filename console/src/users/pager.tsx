import { formatNumber } from '../api';
import { useI18n } from '../i18n/language';

interface PagerProps {
  readonly offset: number;
  readonly pageSize: number;
  readonly total: number;
  readonly onChange: (offset: number) => void;
}

/** "1–25 of 80" with Previous and Next. */
export function Pager({ offset, pageSize, total, onChange }: PagerProps) {
  const last = Math.min(offset + pageSize, total);
  const { t, language } = useI18n();
  const number = (value: number) => formatNumber(value, language);
  return (
    <nav className="pager" aria-label={t.shell.pages}>
      <button
        type="button"
        className="button secondary small"
        disabled={offset === 0}
        onClick={() => {
          onChange(Math.max(0, offset - pageSize));
        }}
      >
        {t.shell.previous}
      </button>
      <span>
        {t.shell.range(number(total === 0 ? 0 : offset + 1), number(last), number(total))}
      </span>
      <button
        type="button"
        className="button secondary small"
        disabled={last >= total}
        onClick={() => {
          onChange(offset + pageSize);
        }}
      >
        {t.shell.next}
      </button>
    </nav>
  );
}
