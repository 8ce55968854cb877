// The shape every eval set is reduced to: vaults of documents, queries with gold units, and a per-query scorer.

export interface VaultDoc {
  sourcePath: string;
  content: string;
  /** ISO 8601 authoring time, when the data set has one. */
  timestamp?: string;
}

export interface Vault {
  name: string;
  docs: VaultDoc[];
}

export interface EvalQuery {
  id: string;
  vault: string;
  text: string;
  /** Reporting group (e.g. LoCoMo category). */
  group: string;
  /** Gold units (dia_ids, session ids, doc ids). */
  gold: ReadonlySet<string>;
  /** When the question was asked (ISO 8601), when the data set says: recall reads its relative words against it. */
  askedAt?: string;
}

export type Metrics = Record<string, number>;

export interface EvalSet {
  name: string;
  vaults: Vault[];
  queries: EvalQuery[];
  /** Chunks requested per query (API max 100). */
  k: number;
  /** The unit gold labels name (dia_id, session, doc) for a hit's source_path. */
  unitOf(sourcePath: string): string;
  /** Metrics of one query from its ranked units, best first, each unit once (its best chunk). */
  score(ranked: readonly string[], q: EvalQuery): Metrics;
  /** Metric names in display order. */
  metrics: string[];
  /** The metric the summary and the calibration grid use. */
  headline: string;
  /** Published or previously measured figures printed beside ours. */
  references: { label: string; metric: string; value: number }[];
  /** Protocol choices worth recording with the results. */
  notes: string[];
}
