// Prometheus metrics (prom-client) on a registry of this runtime, not the global one, so several runtimes in one process stay apart.
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** What a cognitive layer did, summed over every workspace since counting began (persisted, so it survives restarts). */
export type LayerTotals = () => Promise<readonly { layer: string; counter: string; n: number }[]>;

export interface Metrics {
  registry: Registry;
  /** Request latency per matched route template (never the raw URL, which would carry ids). */
  httpDuration: Histogram<"method" | "route" | "status">;
  /** Error responses by stable error code. */
  httpErrors: Counter<"method" | "route" | "code">;
}

export function createMetrics(layerTotals: LayerTotals): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "smriti_" });
  // The same persisted counters the uplift route reads, so /metrics and uplift never disagree; no workspace label, so tenants stay private.
  new Counter({
    name: "smriti_cognitive_layer_events_total",
    help: "What each cognitive layer did (queries expanded, chunks demoted, injection flagged, answers withheld, failures...), all workspaces.",
    labelNames: ["layer", "counter"],
    registers: [registry],
    async collect() {
      const totals = await layerTotals();
      this.reset();
      const sums = new Map<string, number>();
      for (const t of totals) sums.set(`${t.layer}\u0000${t.counter}`, (sums.get(`${t.layer}\u0000${t.counter}`) ?? 0) + t.n);
      for (const [key, n] of sums) {
        const [layer = "", counter = ""] = key.split("\u0000");
        this.inc({ layer, counter }, n);
      }
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: "smriti_http_request_duration_seconds",
      help: "HTTP request latency by route template, method and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    httpErrors: new Counter({ name: "smriti_http_errors_total", help: "HTTP error responses by route and error code.", labelNames: ["method", "route", "code"], registers: [registry] }),
  };
}
