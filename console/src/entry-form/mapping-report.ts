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

export function mappingLineText(line: MappingLine): string {
  const place =
    line.line !== undefined
      ? `line ${line.line}, `
      : line.row !== undefined
        ? `row ${line.row}, `
        : '';
  const head = `${place}${line.attribute}${line.required ? ' (required)' : ''}`;
  switch (line.outcome) {
    case 'mapped':
      return `${head}: ${JSON.stringify(line.value)}`;
    case 'missing':
      return `${head}: ${line.error?.message ?? 'no value'} — optional, left unset`;
    case 'failed':
      return `${head}: ${line.error?.message ?? 'failed'}`;
  }
}
