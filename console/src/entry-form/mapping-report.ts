import type { ConsoleMessages } from '../i18n/catalogs.js';

/**
 * One line of the test panel's user-info report, as a sentence:
 * `line 4, department: key 'org' not found — left unset`. Plain code, no DOM.
 */
export interface MappingLine {
  readonly attribute: string;
  readonly line?: number | undefined;
  readonly row?: number | undefined;
  readonly required: boolean;
  readonly outcome: 'mapped' | 'missing' | 'failed';
  readonly value?: string | boolean | undefined;
  readonly error?: { readonly code: string; readonly message: string } | undefined;
}

type ReportWords = Pick<ConsoleMessages['entryForm'], 'line' | 'required' | 'samples'>;

export function mappingLineText(line: MappingLine, words: ReportWords): string {
  const { samples } = words;
  const place =
    line.line !== undefined
      ? `${words.line(line.line)}, `
      : line.row !== undefined
        ? `${samples.row(line.row)}, `
        : '';
  const head = `${place}${line.attribute}${line.required ? ` ${words.required}` : ''}`;
  switch (line.outcome) {
    case 'mapped':
      return samples.mapped(head, JSON.stringify(line.value));
    case 'missing':
      return samples.missing(head, line.error?.message ?? samples.noValue);
    case 'failed':
      return samples.failedLine(head, line.error?.message ?? samples.failedValue);
  }
}
