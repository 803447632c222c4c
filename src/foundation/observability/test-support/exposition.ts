/** One line of the Prometheus text format: a sample's name, labels and value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const line = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * A strict reader of the text format (version 0.0.4): every line is a
 * comment (# HELP, # TYPE) or a sample; anything else fails the test.
 */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('# HELP ') || raw.startsWith('# TYPE ')) continue;
    const match = line.exec(raw);
    if (match === null) throw new Error(`not a sample line: ${raw}`);
    const [, name = '', labelText = '', value = ''] = match;
    const labels: Record<string, string> = {};
    for (const [, key = '', text] of labelText.matchAll(label)) {
      labels[key] = (text ?? '').replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The value of the sample with this name and exactly these labels, if any. */
export function sample(
  samples: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>>,
): number | undefined {
  const wanted = Object.entries(labels);
  return samples.find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === wanted.length &&
      wanted.every(([key, value]) => s.labels[key] === value),
  )?.value;
}

/** The metric families a scrape names (a histogram's _bucket, _sum, _count under its own name). */
export function familyNames(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] ?? ''));
}
