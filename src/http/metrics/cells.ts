/**
 * Counting on the hot path without prom-client's per-call cost. prom-client hashes the label
 * values into a string on every inc()/observe(), even through a pre-bound child (~0.25 µs a
 * counter, ~0.4 µs a histogram here), and a request touches several families. Instead, a request
 * adds into one plain cell (a count, a sum, a bucket) found by a couple of map lookups, and the
 * families - which are sums of cells over fewer labels - are built from the cells only when
 * /metrics is scraped (bench/: the request path costs a few tens of nanoseconds).
 *
 * Derived counters and gauges go through prom-client's public `collect()` hook (reset, then set
 * the sums). prom-client has no public way to set a histogram's buckets, so a derived histogram
 * overrides `get()`, which the registry reads at scrape time; test/api/core/metrics.test.ts parses
 * the output, so a prom-client upgrade that changes this is caught.
 */
import { type Aggregator, Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * Upper bounds (seconds) of every latency cell: django-prometheus's buckets (10 ms .. 75 s, which
 * NetBox's dashboards expect) and finer ones below 10 ms, where this service answers most requests.
 */
export const CELL_BOUNDS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 25,
  50, 75,
];
/** django-prometheus PROMETHEUS_LATENCY_BUCKETS (its default, kept by NetBox) */
export const DJANGO_BOUNDS: readonly number[] = [
  0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 25, 50, 75,
];

/** A count, a sum of seconds, and how many observations fell at or under each of CELL_BOUNDS (not cumulative). */
export class LatencyCell {
  count = 0;
  sum = 0;
  readonly buckets: number[] = new Array<number>(CELL_BOUNDS.length).fill(0);

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < CELL_BOUNDS.length; i++) {
      if (seconds <= CELL_BOUNDS[i]!) {
        this.buckets[i]!++;
        return;
      }
    }
    // above the last bound: only in count (+Inf)
  }

  /** adds another cell into this one (summing cells over fewer labels at scrape time) */
  add(other: LatencyCell): void {
    this.count += other.count;
    this.sum += other.sum;
    for (let i = 0; i < this.buckets.length; i++) this.buckets[i]! += other.buckets[i]!;
  }
}

export type Labels = Record<string, string>;

/** Sums values under a key built from the labels (scrape time only). */
export class Sums {
  private readonly byKey = new Map<string, { labels: Labels; value: number }>();
  add(labels: Labels, value: number): void {
    const key = Object.values(labels).join('\u0000');
    const e = this.byKey.get(key);
    if (e) e.value += value;
    else this.byKey.set(key, { labels, value });
  }
  entries(): Iterable<{ labels: Labels; value: number }> {
    return this.byKey.values();
  }
}

/** Sums latency cells under a key built from the labels (scrape time only). */
export class CellSums {
  private readonly byKey = new Map<string, { labels: Labels; cell: LatencyCell }>();
  add(labels: Labels, cell: LatencyCell): void {
    const key = Object.values(labels).join('\u0000');
    let e = this.byKey.get(key);
    if (!e) this.byKey.set(key, (e = { labels, cell: new LatencyCell() }));
    e.cell.add(cell);
  }
  entries(): Iterable<{ labels: Labels; cell: LatencyCell }> {
    return this.byKey.values();
  }
}

interface Family {
  registry: Registry;
  name: string;
  help: string;
  labelNames?: string[];
  /**
   * how the families of several worker processes combine (serve --workers, cluster-scrape.ts);
   * prom-client's default is a sum, right for counts and histograms and for per-process gauges
   */
  aggregator?: Aggregator;
}

/** A counter whose values are computed at scrape time (totals kept elsewhere). */
export function derivedCounter(f: Family, read: () => Iterable<{ labels: Labels; value: number }>): void {
  new Counter({
    name: f.name,
    help: f.help,
    labelNames: f.labelNames ?? [],
    registers: [f.registry],
    collect() {
      this.reset();
      for (const { labels, value } of read()) this.inc(labels, value);
    },
  });
}

/** A gauge whose values are read at scrape time (may ask the database). */
export function derivedGauge(
  f: Family,
  read: () => Iterable<{ labels: Labels; value: number }> | Promise<Iterable<{ labels: Labels; value: number }>>,
): void {
  new Gauge({
    name: f.name,
    help: f.help,
    labelNames: f.labelNames ?? [],
    registers: [f.registry],
    aggregator: f.aggregator ?? 'sum',
    async collect() {
      const values = await read();
      this.reset();
      for (const { labels, value } of values) this.set(labels, value);
    },
  });
}

interface SampleValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** A histogram built at scrape time from latency cells, exposing `bounds` (a subset of CELL_BOUNDS). */
class DerivedHistogram extends Histogram<string> {
  private family = '';
  private help = '';
  private read: () => Iterable<{ labels: Labels; cell: LatencyCell }> = () => [];
  private indexes: number[] = [];
  private exposed: readonly number[] = [];

  static create(
    f: Family,
    bounds: readonly number[],
    read: () => Iterable<{ labels: Labels; cell: LatencyCell }>,
  ): DerivedHistogram {
    const h = new DerivedHistogram({
      name: f.name,
      help: f.help,
      labelNames: f.labelNames ?? [],
      buckets: [...bounds],
      registers: [f.registry],
    });
    h.family = f.name;
    h.help = f.help;
    h.read = read;
    h.exposed = bounds;
    h.indexes = bounds.map((b) => {
      const i = CELL_BOUNDS.indexOf(b);
      if (i < 0) throw new Error(`${f.name}: bucket ${b} is not one of the cell bounds`);
      return i;
    });
    return h;
  }

  override async get() {
    const name = this.family;
    const values: SampleValue[] = [];
    for (const { labels, cell } of this.read()) {
      let acc = 0;
      let from = 0;
      for (let b = 0; b < this.exposed.length; b++) {
        for (; from <= this.indexes[b]!; from++) acc += cell.buckets[from]!;
        values.push({ labels: { ...labels, le: this.exposed[b]! }, value: acc, metricName: `${name}_bucket` });
      }
      values.push({ labels: { ...labels, le: '+Inf' }, value: cell.count, metricName: `${name}_bucket` });
      values.push({ labels, value: cell.sum, metricName: `${name}_sum` });
      values.push({ labels, value: cell.count, metricName: `${name}_count` });
    }
    return { name, help: this.help, type: 'histogram', aggregator: 'sum', values } as unknown as Awaited<
      ReturnType<Histogram<string>['get']>
    >;
  }

  /** what the registry reads for the text format (prom-client's Histogram has it besides get()) */
  async getForPromString() {
    return this.get();
  }
}

export function derivedHistogram(
  f: Family,
  bounds: readonly number[],
  read: () => Iterable<{ labels: Labels; cell: LatencyCell }>,
): void {
  DerivedHistogram.create(f, bounds, read);
}
