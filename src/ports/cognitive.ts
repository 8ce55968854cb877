// What the cognitive stack keeps: hourly counters, chitta's impressions, durable figures (tuner, ablation) and process() traces.

/** Increments of one cognitive layer's counter in one workspace, summed per hour bucket (start of the hour, epoch ms). */
export interface CounterIncrement {
  workspaceId: string;
  hour: number;
  layer: string;
  counter: string;
  n: number;
}

/** chitta's impressions: how many more times a chunk was served in a workspace. */
export interface ImpressionIncrement {
  workspaceId: string;
  chunkHash: string;
  n: number;
}

export interface CounterTotal {
  workspaceId: string;
  layer: string;
  counter: string;
  n: number;
}

/** Hour buckets at or after `since` and before `until`; one workspace or all. */
export interface CounterQuery {
  since?: number | undefined;
  until?: number | undefined;
  workspaceId?: string | undefined;
}

/** A durable figure of the cognitive stack: a tuner decision, an ablation run, tuned parameters. */
export interface CognitiveRecord {
  kind: string;
  /** null = deployment-wide (eval runs). */
  workspaceId: string | null;
  at: number;
  payload: unknown;
}

export interface StoredCognitiveRecord extends CognitiveRecord {
  seq: number;
}

export interface CognitiveRecordQuery {
  kind: string;
  since?: number | undefined;
  limit: number;
}

export interface CognitiveStore {
  /** Adds increments to their hour buckets in one transaction (the counter registry flushes in batches). */
  addCounters(rows: readonly CounterIncrement[]): Promise<void>;
  /** Sums per workspace, layer and counter over the matching buckets. */
  counterTotals(query: CounterQuery): Promise<CounterTotal[]>;
  /** Adds to chunks' served counts in one transaction (chitta writes in batches). */
  addImpressions(rows: readonly ImpressionIncrement[]): Promise<void>;
  /** Every served count, per workspace smallest first (chitta restores them at start; its per-workspace cap keeps the largest). */
  listImpressions(): Promise<ImpressionIncrement[]>;
  appendCognitiveRecords(records: readonly CognitiveRecord[]): Promise<void>;
  /** Records of one kind, newest first. */
  listCognitiveRecords(query: CognitiveRecordQuery): Promise<StoredCognitiveRecord[]>;
  /** Stores a process() trace and drops the workspace's older ones beyond its newest `keep`, in one transaction. */
  putTrace(workspaceId: string, traceId: string, at: number, payload: unknown, keep: number): Promise<void>;
  /** A stored trace's payload; undefined when it is unknown or another workspace's. */
  getTrace(workspaceId: string, traceId: string): Promise<unknown>;
}
