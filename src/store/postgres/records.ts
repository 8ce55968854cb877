// Knowledge records in PostgreSQL: decisions, assimilation stages and proposals in one keyed, insertion-ordered table.
import type {
  RecordKind,
  RecordQuery,
  RecordRow,
  RecordSideEffects,
  RecordStore,
  StoredRecord,
} from "../../ports/records.ts";
import { toRecord, type RecordTableRow } from "../rows.ts";
import type { Conn, Db } from "./open.ts";
import type { PostgresTransactions } from "./transactions.ts";
import type pg from "pg";

export class RecordRepo implements RecordStore {
  constructor(
    private readonly db: Db,
    private readonly tx: PostgresTransactions,
  ) {}

  async insertRecord(
    workspaceId: string,
    record: RecordRow,
    also?: RecordSideEffects,
  ): Promise<{ record: StoredRecord; created: boolean }> {
    return this.tx.run(async (c) => {
      const created = await this.insert(c, workspaceId, record);
      if (created) await this.tx.applySideEffects(c, workspaceId, also);
      return { record: (await this.getRecord(workspaceId, record.id, c))!, created };
    });
  }

  async transitionRecord(
    workspaceId: string,
    id: string,
    from: string,
    to: string,
    body: unknown,
    also?: RecordSideEffects,
  ): Promise<StoredRecord | undefined> {
    return this.tx.run(async (c) => {
      const res = await c.query(
        "UPDATE records SET status = $1, body = $2 WHERE workspace_id = $3 AND id = $4 AND status = $5",
        [to, JSON.stringify(body), workspaceId, id, from],
      );
      if (res.rowCount !== 1) return undefined; // compare-and-set
      await this.tx.applySideEffects(c, workspaceId, also);
      return this.getRecord(workspaceId, id, c);
    });
  }

  /** True when the row was new; an existing id is left exactly as it was. A step of the caller's transaction. */
  async insert(c: pg.PoolClient, workspaceId: string, r: RecordRow): Promise<boolean> {
    const res = await c.query(
      `INSERT INTO records (workspace_id, id, kind, grp, parent_id, status, created_at, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (workspace_id, id) DO NOTHING`,
      [workspaceId, r.id, r.kind, r.group, r.parentId, r.status, r.createdAt, JSON.stringify(r.body)],
    );
    return res.rowCount === 1;
  }

  async getRecord(workspaceId: string, id: string, c: Conn = this.db): Promise<StoredRecord | undefined> {
    const { rows } = await c.query<RecordTableRow>("SELECT * FROM records WHERE workspace_id = $1 AND id = $2", [
      workspaceId,
      id,
    ]);
    return rows[0] && toRecord(rows[0]);
  }

  async childRecords(workspaceId: string, parentId: string): Promise<StoredRecord[]> {
    const { rows } = await this.db.query<RecordTableRow>(
      "SELECT * FROM records WHERE workspace_id = $1 AND parent_id = $2 ORDER BY seq",
      [workspaceId, parentId],
    );
    return rows.map(toRecord);
  }

  async listRecords(workspaceId: string, q: RecordQuery): Promise<StoredRecord[]> {
    const args: unknown[] = [workspaceId, q.kinds];
    const where = ["workspace_id = $1", "kind = ANY($2::text[])"];
    const when = (clause: (p: string) => string, value?: unknown) => {
      if (value !== undefined) args.push(value);
      where.push(clause(`$${args.length}`));
    };
    if (q.group !== undefined) when((p) => `grp = ${p}`, q.group);
    if (q.status !== undefined) when((p) => `status = ${p}`, q.status);
    if (q.childless)
      when(() => "NOT EXISTS (SELECT 1 FROM records c WHERE c.workspace_id = r.workspace_id AND c.parent_id = r.id)");
    if (q.afterSeq !== undefined) when((p) => (q.order === "asc" ? `seq > ${p}` : `seq < ${p}`), q.afterSeq);
    args.push(q.limit);
    const sql = `SELECT * FROM records r WHERE ${where.join(" AND ")} ORDER BY seq ${q.order === "asc" ? "ASC" : "DESC"} LIMIT $${args.length}`;
    return (await this.db.query<RecordTableRow>(sql, args)).rows.map(toRecord);
  }

  async countRecords(
    workspaceId: string,
  ): Promise<{ kind: RecordKind; status: string | null; childless: boolean; count: number }[]> {
    const { rows } = await this.db.query<{
      kind: RecordKind;
      status: string | null;
      childless: boolean;
      count: number;
    }>(
      `SELECT kind, status, NOT EXISTS (SELECT 1 FROM records c WHERE c.workspace_id = r.workspace_id AND c.parent_id = r.id) AS childless, COUNT(*)::bigint AS count
       FROM records r WHERE workspace_id = $1 GROUP BY 1, 2, 3 ORDER BY kind COLLATE "C", status COLLATE "C" NULLS FIRST, 3`,
      [workspaceId],
    );
    return rows;
  }
}
