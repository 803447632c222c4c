/** Prints rows under a header, each column as wide as its widest cell, two spaces apart. */
export function printTable(
  out: (line: string) => void,
  header: readonly string[],
  rows: readonly (readonly string[])[],
): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of [header, ...rows]) {
    out(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}
