// What transports need from the composed service: auth, operation handlers, and housekeeping.
import type { AuthService } from "./services/auth.ts";
import type { Handlers } from "./services/handlers.ts";
import type { AuditService } from "./services/audit/audit.ts";
import type { GroundedService } from "./services/answering/grounded.ts";
import type { Metrics } from "./observability/metrics.ts";
import type { CognitiveStack } from "./cognitive/stack.ts";
import type { TraceLog } from "./services/cognitive/traces.ts";

export interface Runtime {
  version: string;
  auth: AuthService;
  handlers: Handlers;
  /** For the one route outside the table: the grounded answer as a server-sent event stream. */
  grounded: GroundedService;
  audit: AuditService;
  /** Served at GET /metrics in Prometheus exposition format. */
  metrics: Metrics;
  /** The layer stack the /sdk/cognitive inspection routes read. */
  cognitive: CognitiveStack;
  /** process() traces, read back by id. */
  traces: TraceLog;
  log: (msg: string) => void;
  close(): Promise<void>;
}
