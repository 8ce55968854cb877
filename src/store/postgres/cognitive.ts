// Cognitive-stack persistence in PostgreSQL: hourly counter buckets, chitta's impressions, JSON records and process() traces.
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
import { transaction, type Db } from "./open.ts";

export class CognitiveRepo implements CognitiveStore {
  constructor(private readonly db: Db) {}

  async addCounters(rows: readonly CounterIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    // Summed per key first: one INSERT ... ON CONFLICT may not touch a row twice.
    const sums = sumBy(rows, (r) => [r.workspaceId, r.hour, r.layer, r.counter]);
    await this.db.query(
      `INSERT INTO cognitive_counters (workspace_id, hour, layer, counter, n)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[]) ORDER BY 1, 2, 3, 4
       ON CONFLICT (workspace_id, hour, layer, counter) DO UPDATE SET n = cognitive_counters.n + excluded.n`,
      [
        sums.map((s) => s.key[0]),
        sums.map((s) => s.key[1]),
        sums.map((s) => s.key[2]),
        sums.map((s) => s.key[3]),
        sums.map((s) => s.n),
      ],
    );
  }

  async counterTotals(q: CounterQuery): Promise<CounterTotal[]> {
    const args: unknown[] = [q.since ?? 0, q.until ?? Number.MAX_SAFE_INTEGER];
    const scope = q.workspaceId !== undefined ? (args.push(q.workspaceId), "AND workspace_id = $3") : "";
    const { rows } = await this.db.query<{ workspaceId: string; layer: string; counter: string; n: number }>(
      `SELECT workspace_id AS "workspaceId", layer, counter, SUM(n)::bigint AS n FROM cognitive_counters WHERE hour >= $1 AND hour < $2 ${scope}
       GROUP BY workspace_id, layer, counter ORDER BY workspace_id COLLATE "C", layer COLLATE "C", counter COLLATE "C"`,
      args,
    );
    return rows;
  }

  async addImpressions(rows: readonly ImpressionIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    const sums = sumBy(rows, (r) => [r.workspaceId, r.chunkHash]);
    await this.db.query(
      `INSERT INTO chunk_impressions (workspace_id, chunk_hash, n) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) ORDER BY 1, 2
       ON CONFLICT (workspace_id, chunk_hash) DO UPDATE SET n = chunk_impressions.n + excluded.n`,
      [sums.map((s) => s.key[0]), sums.map((s) => s.key[1]), sums.map((s) => s.n)],
    );
  }

  async listImpressions(): Promise<ImpressionIncrement[]> {
    const { rows } = await this.db.query<ImpressionIncrement>(
      `SELECT workspace_id AS "workspaceId", chunk_hash AS "chunkHash", n FROM chunk_impressions ORDER BY workspace_id COLLATE "C", n, chunk_hash COLLATE "C"`,
    );
    return rows;
  }

  async appendCognitiveRecords(records: readonly CognitiveRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.db.query(
      "INSERT INTO cognitive_records (kind, workspace_id, at, payload) SELECT k, w, a, p FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) WITH ORDINALITY AS t(k, w, a, p, i) ORDER BY i",
      [
        records.map((r) => r.kind),
        records.map((r) => r.workspaceId),
        records.map((r) => r.at),
        records.map((r) => JSON.stringify(r.payload ?? null)),
      ],
    );
  }

  async putTrace(workspaceId: string, traceId: string, at: number, payload: unknown, keep: number): Promise<void> {
    await transaction(this.db, async (c) => {
      await c.query("INSERT INTO cognitive_traces (trace_id, workspace_id, at, payload) VALUES ($1, $2, $3, $4)", [
        traceId,
        workspaceId,
        at,
        JSON.stringify(payload),
      ]);
      // Everything from the (keep + 1)-th newest down; nothing while the workspace holds no more than `keep`.
      await c.query(
        "DELETE FROM cognitive_traces WHERE workspace_id = $1 AND seq <= (SELECT seq FROM cognitive_traces WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)",
        [workspaceId, keep],
      );
    });
  }

  async getTrace(workspaceId: string, traceId: string): Promise<unknown> {
    const { rows } = await this.db.query<{ payload: string }>(
      "SELECT payload FROM cognitive_traces WHERE workspace_id = $1 AND trace_id = $2",
      [workspaceId, traceId],
    );
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].payload) as unknown);
  }

  async listCognitiveRecords(q: CognitiveRecordQuery): Promise<StoredCognitiveRecord[]> {
    const { rows } = await this.db.query<CognitiveRecordRow>(
      "SELECT * FROM cognitive_records WHERE kind = $1 AND at >= $2 ORDER BY seq DESC LIMIT $3",
      [q.kind, q.since ?? 0, q.limit],
    );
    return rows.map(toCognitiveRecord);
  }
}

/** Increments summed per key, in first-seen order. */
function sumBy<T extends { n: number }, K extends readonly (string | number)[]>(
  rows: readonly T[],
  keyOf: (r: T) => K,
): { key: K; n: number }[] {
  const sums = new Map<string, { key: K; n: number }>();
  for (const r of rows) {
    const key = keyOf(r);
    const k = JSON.stringify(key);
    const s = sums.get(k);
    if (s) s.n += r.n;
    else sums.set(k, { key, n: r.n });
  }
  return [...sums.values()];
}
