// Prometheus metrics (prom-client) on a registry of this runtime, not the global one, so several runtimes in one process stay apart.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** What a cognitive layer did, summed over every workspace since counting began (persisted, so it survives restarts). */
export type LayerTotals = () => Promise<readonly { layer: string; counter: string; n: number }[]>;

export interface Metrics {
  registry: Registry;
  /** Request latency per matched route template (never the raw URL, which would carry ids). */
  httpDuration: Histogram<"method" | "route" | "status">;
  /** Error responses by stable error code. */
  httpErrors: Counter<"method" | "route" | "code">;
}

/** The search indexes' size and (re)loads (SearchEngine.stats). */
export type IndexStatsOf = () => {
  workspaces: number;
  bytes: number;
  loads: number;
  loadSeconds: number;
  evictions: number;
  restored: number;
};

export function createMetrics(
  layerTotals: LayerTotals,
  indexStats: IndexStatsOf = () => ({ workspaces: 0, bytes: 0, loads: 0, loadSeconds: 0, evictions: 0, restored: 0 }),
): Metrics {
  const registry = new Registry();
  // Read when scraped: one gauge per figure, so a replica's memory budget (SMRITI_INDEX_MEMORY_MB) can be watched.
  const gauges = [
    ["smriti_search_index_workspaces", "Workspaces whose search indexes are loaded in this process.", "workspaces"],
    ["smriti_search_index_bytes", "Estimated bytes held by the loaded search indexes.", "bytes"],
    [
      "smriti_search_index_loads",
      "Workspace index loads since start (first use, or again after an eviction).",
      "loads",
    ],
    ["smriti_search_index_load_seconds", "Seconds spent loading workspace indexes since start.", "loadSeconds"],
    [
      "smriti_search_index_evictions",
      "Workspace indexes dropped to stay within SMRITI_INDEX_MEMORY_MB since start.",
      "evictions",
    ],
    [
      "smriti_search_index_restored",
      "Workspace index loads that read a saved snapshot (SMRITI_INDEX_SNAPSHOTS) instead of every row.",
      "restored",
    ],
  ] as const;
  for (const [name, help, field] of gauges)
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(indexStats()[field]);
      },
    });
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
      for (const t of totals)
        sums.set(`${t.layer}\u0000${t.counter}`, (sums.get(`${t.layer}\u0000${t.counter}`) ?? 0) + t.n);
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
    httpErrors: new Counter({
      name: "smriti_http_errors_total",
      help: "HTTP error responses by route and error code.",
      labelNames: ["method", "route", "code"],
      registers: [registry],
    }),
  };
}
