/**
 * Counters and histograms cheap enough for the paths that run on every
 * request to a protected application (forward-auth, the reverse proxy).
 * prom-client's own children hash their label object on every increment;
 * these keep one plain object per label combination, found once and then
 * bumped as numbers. The registry reads them at scrape time through the
 * same `get()` shape prom-client's metrics have, so the text format is
 * prom-client's.
 */

/** What prom-client's Registry reads from a metric at scrape time. */
interface MetricSnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  readonly values: readonly {
    readonly labels: Readonly<Record<string, string | number>>;
    readonly value: number;
    readonly metricName?: string;
  }[];
}

/** A family's label values, as given, in the order of its label names. */
type LabelValues = readonly string[];

abstract class Family<Child> {
  private readonly children = new Map<string, { labels: Record<string, string>; child: Child }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  /**
   * The child of these label values, made on first use. Keep it (hot paths
   * bind theirs once): the lookup joins the values into a key.
   */
  child(...values: LabelValues): Child {
    const key = values.join('\u0000');
    let found = this.children.get(key);
    if (found === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((labelName, index) => {
        labels[labelName] = values[index] ?? '';
      });
      found = { labels, child: this.makeChild() };
      this.children.set(key, found);
    }
    return found.child;
  }

  protected entries(): Iterable<{ labels: Record<string, string>; child: Child }> {
    return this.children.values();
  }

  protected abstract makeChild(): Child;
  abstract get(): MetricSnapshot;
}

export class CounterChild {
  value = 0;

  inc(by = 1): void {
    this.value += by;
  }
}

/** A counter by labels; `_total` is part of the name given. */
export class CounterFamily extends Family<CounterChild> {
  protected makeChild(): CounterChild {
    return new CounterChild();
  }

  get(): MetricSnapshot {
    const values = [];
    for (const { labels, child } of this.entries()) values.push({ labels, value: child.value });
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values };
  }
}

export class HistogramChild {
  /** Observations per bucket, not cumulative; the last is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    const { bounds } = this;
    let index = 0;
    while (index < bounds.length && seconds > (bounds[index] ?? 0)) index += 1;
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** A histogram by labels, in seconds, with fixed upper bounds. */
export class HistogramFamily extends Family<HistogramChild> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected makeChild(): HistogramChild {
    return new HistogramChild(this.bounds);
  }

  get(): MetricSnapshot {
    const values = [];
    for (const { labels, child } of this.entries()) {
      let cumulative = 0;
      for (let index = 0; index <= this.bounds.length; index += 1) {
        cumulative += child.counts[index] ?? 0;
        const le = index < this.bounds.length ? (this.bounds[index] ?? 0) : '+Inf';
        values.push({
          labels: { ...labels, le },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push({ labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: child.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values };
  }
}
