// Knowledge records in SQLite: decisions, assimilation stages and proposals in one keyed, insertion-ordered table.
import type { Db } from "./open.ts";
import type {
  SupersessionLink,
  RecordKind,
  RecordQuery,
  RecordRow,
  RecordSideEffects,
  RecordStore,
  StoredRecord,
} from "../../ports/records.ts";
import type { SqliteTransactions } from "./transactions.ts";
import { toRecord, type RecordTableRow as Row } from "../rows.ts";
import {
  getRecord,
  insertRecord,
  runNow,
  toSupersession,
  transitionRecord,
  type SupersessionTableRow,
} from "../write-steps.ts";

export class RecordRepo implements RecordStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly tx: SqliteTransactions,
  ) {
    this.s = {
      children: db.prepare("SELECT * FROM records WHERE workspace_id = ? AND parent_id = ? ORDER BY seq"),
      // By either path through its own index; json_each takes any number of paths in one prepared statement.
      supersessions: db.prepare(
        `SELECT * FROM supersessions WHERE workspace_id = ? AND old_path IN (SELECT value FROM json_each(?))
         UNION SELECT * FROM supersessions WHERE workspace_id = ? AND new_path IN (SELECT value FROM json_each(?))`,
      ),
      counts: db.prepare(
        `SELECT kind, status, NOT EXISTS (SELECT 1 FROM records c WHERE c.workspace_id = r.workspace_id AND c.parent_id = r.id) AS childless, COUNT(*) AS count
         FROM records r WHERE workspace_id = ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      ),
    };
  }

  async insertRecord(
    workspaceId: string,
    record: RecordRow,
    also?: RecordSideEffects,
  ): Promise<{ record: StoredRecord; created: boolean }> {
    return this.tx.runStep((tx) => insertRecord(tx, workspaceId, record, also));
  }

  async transitionRecord(
    workspaceId: string,
    id: string,
    from: string,
    to: string,
    body: unknown,
    also?: RecordSideEffects,
  ): Promise<StoredRecord | undefined> {
    return this.tx.runStep((tx) => transitionRecord(tx, workspaceId, id, { from, to, body }, also));
  }

  async getRecord(workspaceId: string, id: string): Promise<StoredRecord | undefined> {
    return runNow(getRecord(this.tx, workspaceId, id));
  }

  async childRecords(workspaceId: string, parentId: string): Promise<StoredRecord[]> {
    return (this.s.children.all(workspaceId, parentId) as Row[]).map(toRecord);
  }

  async listRecords(workspaceId: string, q: RecordQuery): Promise<StoredRecord[]> {
    const where = [`workspace_id = ?`, `kind IN (${q.kinds.map(() => "?").join(", ")})`];
    const args: unknown[] = [workspaceId, ...q.kinds];
    const when = (clause: string, ...values: unknown[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (q.group !== undefined) when("grp = ?", q.group);
    if (q.status !== undefined) when("status = ?", q.status);
    if (q.childless)
      when("NOT EXISTS (SELECT 1 FROM records c WHERE c.workspace_id = r.workspace_id AND c.parent_id = r.id)");
    if (q.afterSeq !== undefined) when(q.order === "asc" ? "seq > ?" : "seq < ?", q.afterSeq);
    const sql = `SELECT * FROM records r WHERE ${where.join(" AND ")} ORDER BY seq ${q.order === "asc" ? "ASC" : "DESC"} LIMIT ?`;
    return (this.db.prepare(sql).all(...args, q.limit) as Row[]).map(toRecord);
  }

  async supersessions(workspaceId: string, sourcePaths: readonly string[]): Promise<SupersessionLink[]> {
    if (sourcePaths.length === 0) return [];
    const paths = JSON.stringify([...new Set(sourcePaths)]);
    const rows = this.s.supersessions.all(workspaceId, paths, workspaceId, paths) as SupersessionTableRow[];
    return rows.map(toSupersession);
  }

  async countRecords(
    workspaceId: string,
  ): Promise<{ kind: RecordKind; status: string | null; childless: boolean; count: number }[]> {
    return (
      this.s.counts.all(workspaceId) as { kind: RecordKind; status: string | null; childless: number; count: number }[]
    ).map((c) => ({ ...c, childless: c.childless === 1 }));
  }
}
