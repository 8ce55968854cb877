// Cognitive-stack persistence in SQLite: hourly counter buckets, chitta's impressions, JSON records (tuner decisions, ablations) and process() traces.
import type {
  CognitiveRecord,
  CognitiveRecordQuery,
  CognitiveStore,
  CounterIncrement,
  CounterQuery,
  CounterTotal,
  ImpressionIncrement,
  StoredCognitiveRecord,
} from "../../ports/cognitive.ts";
import { toCognitiveRecord, type CognitiveRecordRow } from "../rows.ts";
import type { Db } from "./open.ts";

export class CognitiveRepo implements CognitiveStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      add: db.prepare(
        `INSERT INTO cognitive_counters (workspace_id, hour, layer, counter, n) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, hour, layer, counter) DO UPDATE SET n = n + excluded.n`,
      ),
      append: db.prepare("INSERT INTO cognitive_records (kind, workspace_id, at, payload) VALUES (?, ?, ?, ?)"),
      addImpression: db.prepare(
        `INSERT INTO chunk_impressions (workspace_id, chunk_hash, n) VALUES (?, ?, ?)
         ON CONFLICT (workspace_id, chunk_hash) DO UPDATE SET n = n + excluded.n`,
      ),
      impressions: db.prepare(
        "SELECT workspace_id AS workspaceId, chunk_hash AS chunkHash, n FROM chunk_impressions ORDER BY workspace_id, n, chunk_hash",
      ),
      putTrace: db.prepare("INSERT INTO cognitive_traces (trace_id, workspace_id, at, payload) VALUES (?, ?, ?, ?)"),
      // Everything from the (keep + 1)-th newest down; nothing while the workspace holds no more than `keep`.
      pruneTraces: db.prepare(
        "DELETE FROM cognitive_traces WHERE workspace_id = ? AND seq <= (SELECT seq FROM cognitive_traces WHERE workspace_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
      ),
      getTrace: db.prepare("SELECT payload FROM cognitive_traces WHERE workspace_id = ? AND trace_id = ?").pluck(),
    };
  }

  async addCounters(rows: readonly CounterIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    this.db
      .transaction(() => {
        for (const r of rows) this.s.add.run(r.workspaceId, r.hour, r.layer, r.counter, r.n);
      })
      .immediate();
  }

  async counterTotals(q: CounterQuery): Promise<CounterTotal[]> {
    const where = ["hour >= ?", "hour < ?"];
    const args: unknown[] = [q.since ?? 0, q.until ?? Number.MAX_SAFE_INTEGER];
    if (q.workspaceId !== undefined) {
      where.push("workspace_id = ?");
      args.push(q.workspaceId);
    }
    return this.db
      .prepare(
        `SELECT workspace_id AS workspaceId, layer, counter, SUM(n) AS n FROM cognitive_counters WHERE ${where.join(" AND ")} GROUP BY workspace_id, layer, counter ORDER BY workspace_id, layer, counter`,
      )
      .all(...args) as CounterTotal[];
  }

  async addImpressions(rows: readonly ImpressionIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    this.db
      .transaction(() => {
        for (const r of rows) this.s.addImpression.run(r.workspaceId, r.chunkHash, r.n);
      })
      .immediate();
  }

  async listImpressions(): Promise<ImpressionIncrement[]> {
    return this.s.impressions.all() as ImpressionIncrement[];
  }

  async appendCognitiveRecords(records: readonly CognitiveRecord[]): Promise<void> {
    this.db
      .transaction(() => {
        for (const r of records) this.s.append.run(r.kind, r.workspaceId, r.at, JSON.stringify(r.payload ?? null));
      })
      .immediate();
  }

  async putTrace(workspaceId: string, traceId: string, at: number, payload: unknown, keep: number): Promise<void> {
    this.db
      .transaction(() => {
        this.s.putTrace.run(traceId, workspaceId, at, JSON.stringify(payload));
        this.s.pruneTraces.run(workspaceId, workspaceId, keep);
      })
      .immediate();
  }

  async getTrace(workspaceId: string, traceId: string): Promise<unknown> {
    const payload = this.s.getTrace.get(workspaceId, traceId) as string | undefined;
    return payload === undefined ? undefined : (JSON.parse(payload) as unknown);
  }

  async listCognitiveRecords(q: CognitiveRecordQuery): Promise<StoredCognitiveRecord[]> {
    const rows = this.db
      .prepare("SELECT * FROM cognitive_records WHERE kind = ? AND at >= ? ORDER BY seq DESC LIMIT ?")
      .all(q.kind, q.since ?? 0, q.limit) as CognitiveRecordRow[];
    return rows.map(toCognitiveRecord);
  }
}
