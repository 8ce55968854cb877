// What transports need from the composed service: auth, a handler per route of the table, metrics and housekeeping.
import type { AuthService } from "./services/auth.ts";
import type { Handlers, StreamHandlers } from "./ports/route-handlers.ts";
import type { Metrics } from "./observability/metrics.ts";
import type { CallContext } from "./ports/call-context.ts";

export interface Runtime {
  version: string;
  auth: AuthService;
  /** The JSON rows of the route table (Memory API and inspection routes), by route id. */
  handlers: Handlers;
  /** The stream rows, by route id. */
  streams: StreamHandlers;
  /** The chat session an AG-UI thread runs in, created on its first run (sessions/chat-sessions.ts openThread). */
  chatThread(call: CallContext, threadId: string): Promise<string>;
  /** Served at GET /metrics in Prometheus exposition format. */
  metrics: Metrics;
  log: (msg: string) => void;
  close(): Promise<void>;
}
