/**
 * Request metrics. Each route gets a RouteSeries on its first response (its `view` and URL
 * template worked out once, whenever and by whichever plugin the route was registered); a response
 * adds its latency into the one cell of its route, method, status and transport. Every family - NetBox's django_http_* names and the service's own - is a
 * sum of those cells, made when /metrics is scraped (cells.ts).
 *
 * Unrouted requests (404s, the trailing-slash redirects) share one series, so a client probing
 * random paths cannot create label values.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry as PromRegistry } from 'prom-client';
import { ApiError } from '../../core/errors.js';
import type { Registry } from '../../core/model/registry.js';
import { CellSums, DJANGO_BOUNDS, derivedCounter, derivedHistogram, type Labels, LatencyCell, Sums } from './cells.js';
import { UNNAMED_VIEW, viewName } from './view-names.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the `view` label of the request metrics; derived from the URL when absent (view-names.ts) */
    view?: string;
  }
}

/** the `route` label of requests that matched no route */
const UNROUTED = '<unrouted>';

/** the service's own request latency buckets (seconds) */
const OWN_BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

class RequestCell extends LatencyCell {
  constructor(
    readonly method: string,
    readonly status: string,
    readonly transport: 'http' | 'https',
  ) {
    super();
  }
}

/** The cells of one route: method -> (status, transport) -> cell. */
class RouteSeries {
  private readonly byMethod = new Map<string, Map<number, RequestCell>>();
  constructor(
    readonly view: string,
    readonly route: string,
  ) {}

  record(method: string, status: number, https: boolean, seconds: number): void {
    let byStatus = this.byMethod.get(method);
    if (!byStatus) this.byMethod.set(method, (byStatus = new Map()));
    const key = https ? -status : status;
    let cell = byStatus.get(key);
    if (!cell) byStatus.set(key, (cell = new RequestCell(method, String(status), https ? 'https' : 'http')));
    cell.observe(seconds);
  }

  *cells(): Iterable<RequestCell> {
    for (const byStatus of this.byMethod.values()) yield* byStatus.values();
  }
}

export function registerRequestMetrics(app: FastifyInstance, registry: PromRegistry, models: Registry): void {
  const byUrl = new Map<string, RouteSeries>();
  const unrouted = new RouteSeries(UNNAMED_VIEW, UNROUTED);
  // unhandled errors by type and view (django-prometheus counts exceptions that escaped the view)
  const exceptionsByType = new Map<string, number>();
  const exceptionsByView = new Map<string, number>();
  const errorTypes = new WeakMap<FastifyRequest, string>();

  // errors the service answers on purpose are ApiErrors (and database errors it maps to 4xx);
  // the rest are counted if they end in a 5xx, below
  app.addHook('onError', (request, _reply, error, done) => {
    if (!(error instanceof ApiError)) errorTypes.set(request, error.constructor?.name || 'Error');
    done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions;
    const url = route.url;
    let series = url === undefined ? unrouted : byUrl.get(url);
    if (!series) byUrl.set(url!, (series = new RouteSeries(route.config.view ?? viewName(url!, models), url!)));
    const status = reply.statusCode;
    series.record(request.method, status, request.protocol === 'https', reply.elapsedTime / 1000);
    if (status >= 500) {
      const type = errorTypes.get(request);
      if (type) {
        exceptionsByType.set(type, (exceptionsByType.get(type) ?? 0) + 1);
        exceptionsByView.set(series.view, (exceptionsByView.get(series.view) ?? 0) + 1);
      }
    }
    done();
  });

  const allSeries = () => [unrouted, ...byUrl.values()];
  /** sums of request counts over the given labels */
  const countBy = (labelsOf: (s: RouteSeries, c: RequestCell) => Labels) => () => {
    const sums = new Sums();
    for (const s of allSeries()) for (const c of s.cells()) sums.add(labelsOf(s, c), c.count);
    return sums.entries();
  };
  const latencyBy = (labelsOf: (s: RouteSeries, c: RequestCell) => Labels) => () => {
    const sums = new CellSums();
    for (const s of allSeries()) for (const c of s.cells()) sums.add(labelsOf(s, c), c);
    return sums.entries();
  };
  const family = (name: string, help: string, labelNames: string[] = []) => ({ registry, name, help, labelNames });

  // NetBox (django-prometheus): the names its dashboards query
  derivedCounter(
    family('django_http_requests_total_by_method_total', 'Count of requests by method.', ['method']),
    countBy((_, c) => ({ method: c.method })),
  );
  derivedCounter(
    family('django_http_requests_total_by_transport_total', 'Count of requests by transport.', ['transport']),
    countBy((_, c) => ({ transport: c.transport })),
  );
  derivedCounter(
    family(
      'django_http_requests_total_by_view_transport_method_total',
      'Count of requests by view, transport, method.',
      ['view', 'transport', 'method'],
    ),
    countBy((s, c) => ({ view: s.view, transport: c.transport, method: c.method })),
  );
  derivedCounter(
    family('django_http_responses_total_by_status_total', 'Count of responses by status.', ['status']),
    countBy((_, c) => ({ status: c.status })),
  );
  derivedCounter(
    family('django_http_responses_total_by_status_view_method_total', 'Count of responses by status, view, method.', [
      'status',
      'view',
      'method',
    ]),
    countBy((s, c) => ({ status: c.status, view: s.view, method: c.method })),
  );
  derivedHistogram(
    family(
      'django_http_requests_latency_seconds_by_view_method',
      'Histogram of request processing time labelled by view.',
      ['view', 'method'],
    ),
    DJANGO_BOUNDS,
    latencyBy((s, c) => ({ view: s.view, method: c.method })),
  );
  derivedHistogram(
    family(
      'django_http_requests_latency_including_middlewares_seconds',
      'Histogram of requests processing time (including middleware processing time).',
    ),
    DJANGO_BOUNDS,
    latencyBy(() => ({})),
  );
  const mapEntries = (m: Map<string, number>, label: string) => () =>
    [...m].map(([k, value]) => ({ labels: { [label]: k }, value }));
  derivedCounter(
    family('django_http_exceptions_total_by_type_total', 'Count of exceptions by object type.', ['type']),
    mapEntries(exceptionsByType, 'type'),
  );
  derivedCounter(
    family('django_http_exceptions_total_by_view_total', 'Count of exceptions by view.', ['view']),
    mapEntries(exceptionsByView, 'view'),
  );

  // the service's own: latency by method, route template and status, with buckets below 10 ms
  derivedHistogram(
    family(
      'inventory_http_request_duration_seconds',
      'Time to answer a request, by method, route template and status.',
      ['method', 'route', 'status'],
    ),
    OWN_BOUNDS,
    latencyBy((s, c) => ({ method: c.method, route: s.route, status: c.status })),
  );
}
