// The shape of one bench run's results (also the JSON written to bench/results/).
import type { CliResult } from "../scenarios/cli.ts";
import type { ServedResult } from "../scenarios/served.ts";
import type { ColdStartResult } from "../scenarios/cold-start.ts";
import type { ContentionResult } from "../scenarios/contention.ts";
import type { HttpIngest } from "../scenarios/http-ingest.ts";
import type { SmallIngest } from "../scenarios/small-ingest.ts";
import type { HttpLoadResult } from "../scenarios/http-load.ts";
import type { WorkersLoadResult } from "../scenarios/workers-load.ts";
import type { HttpRecallResult } from "../scenarios/http-recall.ts";
import type { SizedIngest } from "../scenarios/ingest-to-size.ts";
import type { DbSize } from "../lib/db-size.ts";
import type { PackResult } from "../scenarios/pack.ts";
import type { LayersResult } from "../scenarios/layers.ts";
import type { RecallResult } from "../scenarios/recall.ts";
import type { SessionsResult } from "../scenarios/sessions.ts";
import type { BackgroundResult } from "../scenarios/background.ts";
import type { PostgresResult } from "../scenarios/postgres.ts";
import type { CommitInfo, MachineInfo } from "../lib/machine.ts";
import type { MemorySnapshot } from "../lib/memory.ts";

export interface SizeResults {
  chunks: number;
  documents: number;
  ingest: { none: SizedIngest; glove: SizedIngest };
  /** After ingest (runtime closed, WAL checkpointed), before the contention test adds documents. */
  db: { none: DbSize; glove: DbSize };
  /** glove and none read every row; restart is glove again, reading the indexes the first saved. */
  coldStart: { glove: ColdStartResult; none: ColdStartResult; restart?: ColdStartResult };
  /** `smriti --help` and `smriti recall` wall time on this size's vault; absent in results written before it existed. */
  cli?: CliResult;
  /** `smriti serve` in a fresh process: first recall and resident memory; absent in results written before it existed. */
  served?: { snapshot: ServedResult; rows: ServedResult };
  recall: RecallResult[];
  pack: PackResult;
  /** Hybrid recall with every cognitive layer on / off, and each layer's time per recall. */
  layers: LayersResult;
  http: HttpRecallResult;
  /** autocannon from another process; absent in results written before it existed. */
  httpLoad?: HttpLoadResult;
  /** `smriti serve --workers 1` and one worker per core, compiled, under autocannon; absent in results written before it existed. */
  workersLoad?: WorkersLoadResult[];
  contention: ContentionResult | null;
  /** Bulk ingest over HTTP, 4 documents in flight, nothing else running; absent in results written before it existed. */
  httpIngest?: HttpIngest;
  /** Chat turns with the extractive provider over HTTP, one SSE stream's throughput, recall while turns run. */
  sessions: SessionsResult;
  background: { extractive: BackgroundResult; paced: BackgroundResult };
  /** The same corpus on PostgreSQL: ingest, in-process recall, HTTP throughput from one and two replicas (null: skipped). */
  postgres?: PostgresResult | null;
  /** The bench process itself after recall runs on this size (includes its corpus and ingest garbage). */
  benchProcessMemory: MemorySnapshot;
}

export interface TargetCheck {
  metric: string;
  target: string;
  measured: number;
  unit: string;
  pass: boolean;
  note?: string;
}

export interface BenchResults {
  date: string;
  commit: CommitInfo;
  machine: MachineInfo;
  options: {
    quick: boolean;
    sizes: number[];
    queries: number;
    seed: number;
    vocabulary: number;
    zipfExponent: number;
    ingestBudgetSeconds: number;
  };
  sizes: SizeResults[];
  /** One-chunk documents, 8 writers, on a fresh store; absent in results written before it existed. */
  smallIngest?: { inProcess: SmallIngest; http: SmallIngest };
  targets: TargetCheck[];
  durationSeconds: number;
}
