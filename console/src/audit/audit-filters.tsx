import { useState } from 'react';
import type { SyntheticEvent } from 'react';
import { useI18n } from '../i18n/language';
import type { EntryView } from '../types';
import type { AuditFilters } from './audit-query';
import { noFilters } from './audit-query';

interface AuditFilterFormProps {
  readonly entries: readonly EntryView[];
  readonly onApply: (filters: AuditFilters) => void;
}

/** A select's option: its value and what the reader sees. */
type FilterOption = readonly [value: string, label: string];

interface FilterFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** With options the field is a select, without it an input. */
  readonly options?: readonly FilterOption[];
  readonly type?: 'datetime-local';
  readonly placeholder?: string;
}

/** One labelled filter: a select when it has options, an input otherwise. */
function FilterField({ id, label, value, onChange, options, type, placeholder }: FilterFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {options === undefined ? (
        <input
          id={id}
          type={type}
          value={value}
          placeholder={placeholder}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      ) : (
        <select
          id={id}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        >
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

/** The audit's filters; applied on submit so each change is not a query. */
export function AuditFilterForm({ entries, onApply }: AuditFilterFormProps) {
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const words = useI18n().t.audit;
  const outcomeOptions: readonly FilterOption[] = [
    ['', words.anyOutcome],
    ['success', words.success],
    ['failure', words.failure],
  ];
  const kindOptions: readonly FilterOption[] = [
    ['', words.anyEvent],
    ...Object.entries(words.kinds).map(([kind, label]): FilterOption => [kind, label]),
  ];
  /** The value and change handler of one filter. */
  const bind = (key: keyof AuditFilters) => ({
    value: filters[key],
    onChange: (value: string) => {
      setFilters((current) => ({ ...current, [key]: value }));
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    onApply(filters);
  };
  const entryOptions: readonly FilterOption[] = [
    ['', words.anyEntry],
    ...entries.map((entry): FilterOption => [entry.id, `${entry.name} (${entry.id})`]),
  ];
  return (
    <form className="filters" onSubmit={submit} aria-label={words.filters}>
      <FilterField
        id="audit-entry"
        label={words.entry}
        options={entryOptions}
        {...bind('entryId')}
      />
      <FilterField
        id="audit-outcome"
        label={words.outcome}
        options={outcomeOptions}
        {...bind('outcome')}
      />
      <FilterField id="audit-kind" label={words.event} options={kindOptions} {...bind('kind')} />
      <FilterField
        id="audit-user"
        label={words.user}
        placeholder={words.userPlaceholder}
        {...bind('userId')}
      />
      <FilterField
        id="audit-reference"
        label={words.reference}
        placeholder={words.referencePlaceholder}
        {...bind('reference')}
      />
      <FilterField id="audit-since" label={words.from} type="datetime-local" {...bind('since')} />
      <FilterField id="audit-until" label={words.until} type="datetime-local" {...bind('until')} />
      <div className="filter-actions">
        <button type="submit" className="button">
          {words.apply}
        </button>
      </div>
    </form>
  );
}
