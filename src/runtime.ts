// What transports need from the composed service: auth, a handler per route of the table, metrics and housekeeping.
import type { AuthService } from "./services/auth.ts";
import type { Handlers, StreamHandlers } from "./ports/route-handlers.ts";
import type { Metrics } from "./observability/metrics.ts";

export interface Runtime {
  version: string;
  auth: AuthService;
  /** The JSON rows of the route table (Memory API and inspection routes), by route id. */
  handlers: Handlers;
  /** The stream rows, by route id. */
  streams: StreamHandlers;
  /** Served at GET /metrics in Prometheus exposition format. */
  metrics: Metrics;
  log: (msg: string) => void;
  close(): Promise<void>;
}
