// /__metrics: the Prometheus text format (prom-client) with the figures an operator of a
// shared sandbox watches: requests and their latency per operation and status, store errors,
// the sandboxes that hold data of their own, the collection cache's size (PostgreSQL), and the
// process's own (CPU, memory, event loop).
import client from 'prom-client';

export const METRICS_PATH = '/__metrics';

/** The operation label of requests that did not route to an operation of a description. */
export const NO_OPERATION = 'none';

export interface Metrics {
  readonly contentType: string;
  /** One answered request. */
  observe(operation: string | undefined, status: number | 'dropped', seconds: number): void;
  storeError(kind: 'unavailable' | 'error'): void;
  text(): Promise<string>;
}

export function createMetrics(options: { sandboxes: () => Promise<number>; cachedBytes: () => number }): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'payroll_mock_' });
  const requests = new client.Counter({
    name: 'payroll_mock_requests_total',
    help: 'Requests answered, by operation (operationId) and status.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'payroll_mock_request_duration_seconds',
    help: 'Time from the request to its answer, by operation and status.',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const storeErrors = new client.Counter({
    name: 'payroll_mock_store_errors_total',
    help: "Store operations that failed: 'unavailable' (the database could not be reached) or 'error'.",
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  for (const kind of ['unavailable', 'error'] as const) storeErrors.inc({ kind }, 0);
  new client.Gauge({
    name: 'payroll_mock_sandboxes',
    help: 'Sandboxes holding data of their own (the others read the shared seed).',
    registers: [registry],
    async collect() {
      // A store that cannot answer leaves the gauge as it was; the errors counter tells.
      try {
        this.set(await options.sandboxes());
      } catch {
        /* counted as a store error by the store */
      }
    },
  });
  new client.Gauge({
    name: 'payroll_mock_collection_cache_bytes',
    help: 'JSON size of the collections kept parsed for lists (PostgreSQL; see --collection-cache).',
    registers: [registry],
    collect() {
      this.set(options.cachedBytes());
    },
  });
  const seriesOf = new Map<string, { requests: client.Counter.Internal; latency: client.Histogram.Internal<'operation' | 'status'> }>();
  return {
    contentType: registry.contentType,
    observe(operation, status, seconds) {
      // The pair's children are kept: prom-client hashes a labels object on every call otherwise.
      const key = `${operation ?? NO_OPERATION} ${status}`;
      let series = seriesOf.get(key);
      if (!series) {
        const labels = { operation: operation ?? NO_OPERATION, status: String(status) };
        series = { requests: requests.labels(labels), latency: latency.labels(labels) };
        seriesOf.set(key, series);
      }
      series.requests.inc();
      series.latency.observe(seconds);
    },
    storeError: (kind) => storeErrors.inc({ kind }),
    text: () => registry.metrics(),
  };
}
