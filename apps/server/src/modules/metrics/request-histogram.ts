import type { Metric, MetricValueWithName, Registry } from 'prom-client';

type Labels = Record<string, string | number>;

/** One label set's counts: observations per bucket (the last one past every bound), sum, count. */
class Series {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    this.counts[bucket]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export interface FastHistogramDeps {
  name: string;
  help: string;
  /** The buckets' upper bounds, ascending. */
  bounds: readonly number[];
  /** The registries it writes itself into. */
  registers: Registry[];
}

/**
 * A histogram kept as plain counts per label set, for the one observed on every request (the
 * request duration). prom-client's Histogram checks and hashes the labels and makes closures on
 * every `observe`, even through a child found once: a few µs of a cached read that costs ~90 µs
 * in all (docs/benchmarks.md). A scrape asks `get()` (a registry takes any metric that has it)
 * and writes the same lines prom-client's Histogram writes: cumulative `_bucket`s with `le`
 * first, `+Inf`, `_sum`, `_count`.
 */
export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly all: Series[] = [];

  constructor(private readonly deps: FastHistogramDeps) {
    this.name = deps.name;
    this.help = deps.help;
    for (const registry of deps.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these labels: keep it and call its `observe`, no lookup per observation. */
  series(labels: Labels): { observe(value: number): void } {
    const series = new Series(labels, this.deps.bounds);
    this.all.push(series);
    return series;
  }

  async get() {
    const values: MetricValueWithName<string>[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.all) {
      let cumulative = 0;
      this.deps.bounds.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push({
          metricName: bucketName,
          labels: { le: bound, ...series.labels },
          value: cumulative,
        });
      });
      values.push(
        { metricName: bucketName, labels: { le: '+Inf', ...series.labels }, value: series.count },
        { metricName: `${this.name}_sum`, labels: series.labels, value: series.sum },
        { metricName: `${this.name}_count`, labels: series.labels, value: series.count },
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
