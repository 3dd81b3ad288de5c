/**
 * /metrics when `serve --workers N` runs several processes on one port (src/serve/README.md). A
 * scrape reaches one worker, but must describe the whole service, so that worker asks the primary,
 * the primary asks every worker for its finished families (each worker sums its cells into
 * families at that moment, cells.ts: only families cross the IPC channel), adds its own process
 * figures, combines them with prom-client's AggregatorRegistry.aggregate (each family by its
 * `aggregator`: counters and histograms sum, per-process gauges sum, a database-wide gauge takes
 * the max, event-loop lag averages) and sends the text back.
 *
 * prom-client's own clusterMetrics() is not used: it waits for every worker and fails the whole
 * scrape after 5 s if one does not answer, which is what a worker being restarted does. Here a
 * worker that has not answered within COLLECT_TIMEOUT_MS is left out and the scrape says so
 * (`inventory_cluster_workers{state="answered"}`).
 */
import type { Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry as PromRegistry,
} from 'prom-client';

/** how long the primary waits for the workers' families */
const COLLECT_TIMEOUT_MS = 2_000;
/** how long a worker waits for the primary's text (more than COLLECT_TIMEOUT_MS) */
const SCRAPE_TIMEOUT_MS = 5_000;

const SCRAPE = 'inventory:metrics:scrape';
const TEXT = 'inventory:metrics:text';
const COLLECT = 'inventory:metrics:collect';
const FAMILIES = 'inventory:metrics:families';

type Families = MetricObjectWithValues<MetricValue<string>>[];
interface Message {
  type?: string;
  id?: number;
  text?: string | null;
  families?: Families;
}

// ---- worker side ----

let nextId = 0;

/**
 * Worker: answers the primary's requests for this process's families; returns the function that
 * stops answering (app close).
 */
export function answerCollects(registry: PromRegistry): () => void {
  const onMessage = (m: Message) => {
    if (m?.type !== COLLECT) return;
    void registry.getMetricsAsJSON().then(
      (families) => process.send?.({ type: FAMILIES, id: m.id, families }),
      () => process.send?.({ type: FAMILIES, id: m.id, families: [] }),
    );
  };
  process.on('message', onMessage);
  return () => void process.off('message', onMessage);
}

/** Worker: the whole service's exposition, from the primary; null when it did not answer in time. */
export function askPrimaryForMetrics(timeoutMs = SCRAPE_TIMEOUT_MS): Promise<string | null> {
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (text: string | null) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(text);
    };
    const onMessage = (m: Message) => {
      if (m?.type === TEXT && m.id === id) done(m.text ?? null);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    process.on('message', onMessage);
    process.send?.({ type: SCRAPE, id });
  });
}

// ---- primary side ----

export interface ClusterView {
  /** the live workers and their slot numbers (1..N; a restarted worker takes its slot over) */
  workers(): Iterable<{ slot: number; worker: Worker }>;
  configured: number;
  /** workers restarted since the start */
  restarts(): number;
  /** the primary's own registry (process_* of the primary: it accepts and hands out connections) */
  own: PromRegistry;
}

/** Primary: answers workers' scrape requests with the aggregated exposition. */
export function serveClusterScrapes(
  cluster: { on(event: 'message', fn: (w: Worker, m: Message) => void): unknown },
  view: ClusterView,
): void {
  let nextCollect = 0;
  const pending = new Map<number, (slotFamilies: Families) => void>();
  cluster.on('message', (worker, m) => {
    if (m?.type === FAMILIES) pending.get(m.id!)?.(m.families ?? []);
    if (m?.type !== SCRAPE) return;
    void collect().then(
      (text) => worker.isConnected() && worker.send({ type: TEXT, id: m.id, text }),
      () => worker.isConnected() && worker.send({ type: TEXT, id: m.id, text: null }),
    );
  });

  /** asks each live worker, keeps what came back within COLLECT_TIMEOUT_MS */
  async function collect(): Promise<string> {
    const asked = [...view.workers()].filter(({ worker }) => worker.isConnected());
    const replies = await Promise.all(
      asked.map(
        ({ slot, worker }) =>
          new Promise<{ slot: number; families: Families } | null>((resolve) => {
            const id = nextCollect++;
            const timer = setTimeout(() => finish(null), COLLECT_TIMEOUT_MS);
            function finish(families: Families | null) {
              clearTimeout(timer);
              pending.delete(id);
              resolve(families ? { slot, families } : null);
            }
            pending.set(id, finish);
            worker.send({ type: COLLECT, id }, (err: Error | null) => err && finish(null));
          }),
      ),
    );
    const answered = replies.filter((r) => r !== null);
    return aggregateExposition(answered, {
      configured: view.configured,
      restarts: view.restarts(),
      own: await view.own.getMetricsAsJSON(),
    });
  }
}

/** the request counter every worker has; its sum per worker shows how the port spreads the load */
const REQUESTS_FAMILY = 'django_http_requests_total_by_method_total';

/**
 * The families of the workers that answered, combined, plus the cluster's own: how many workers
 * answered, restarts, and the requests each worker slot served.
 */
export async function aggregateExposition(
  replies: Array<{ slot: number; families: Families }>,
  facts: { configured: number; restarts: number; own: Families },
): Promise<string> {
  const perSlot = replies.map(({ slot, families }) => ({
    labels: { worker: String(slot) },
    value: (families.find((f) => f.name === REQUESTS_FAMILY)?.values ?? []).reduce((n, v) => n + v.value, 0),
  }));
  const cluster: Families = [
    family(
      'inventory_cluster_workers',
      'gauge',
      'Worker processes of serve --workers: configured, and those whose figures this scrape holds.',
      [
        { labels: { state: 'configured' }, value: facts.configured },
        { labels: { state: 'answered' }, value: replies.length },
      ],
    ),
    family(
      'inventory_cluster_worker_restarts_total',
      'counter',
      'Worker processes started again after one ended unexpectedly.',
      [{ labels: {}, value: facts.restarts }],
    ),
    family(
      'inventory_cluster_worker_requests_total',
      'counter',
      'Requests answered, by worker slot (a restarted worker starts again from 0).',
      perSlot,
    ),
  ];
  const registry = AggregatorRegistry.aggregate([...replies.map((r) => r.families), facts.own, cluster]);
  return registry.metrics();
}

function family(
  name: string,
  type: 'gauge' | 'counter',
  help: string,
  values: Array<{ labels: Record<string, string>; value: number }>,
): Families[number] {
  return { name, help, type, aggregator: 'sum', values } as unknown as Families[number];
}
