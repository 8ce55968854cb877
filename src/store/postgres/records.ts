// Knowledge records in PostgreSQL: decisions, assimilation stages and proposals in one keyed, insertion-ordered table.
import type {
  SupersessionLink,
  RecordKind,
  RecordQuery,
  RecordRow,
  RecordSideEffects,
  RecordStore,
  StoredRecord,
} from "../../ports/records.ts";
import { toRecord, type RecordTableRow } from "../rows.ts";
import {
  getRecord,
  insertRecord,
  runAwaiting,
  toSupersession,
  transitionRecord,
  type SupersessionTableRow,
} from "../write-steps.ts";
import type { Db } from "./open.ts";
import type { PostgresTransactions } from "./transactions.ts";

/** How long a workspace read to hold no supersession is taken to hold none: another process's first one shows within it. */
const NONE_RECHECK_MS = 1_000;

export class RecordRepo implements RecordStore {
  /** Workspaces last read to hold no supersession, and when: most hold none, so a recall skips a round trip. */
  private readonly noSupersessions = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly tx: PostgresTransactions,
  ) {}

  async insertRecord(
    workspaceId: string,
    record: RecordRow,
    also?: RecordSideEffects,
  ): Promise<{ record: StoredRecord; created: boolean }> {
    const written = await this.tx.runStep((tx) => insertRecord(tx, workspaceId, record, also));
    if (also?.supersede) this.noSupersessions.delete(workspaceId);
    return written;
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
    return runAwaiting(getRecord(this.tx.engine(this.db), workspaceId, id));
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

  async supersessions(workspaceId: string, sourcePaths: readonly string[]): Promise<SupersessionLink[]> {
    if (sourcePaths.length === 0 || (await this.holdsNone(workspaceId))) return [];
    const { rows } = await this.db.query<SupersessionTableRow>(
      `SELECT * FROM supersessions WHERE workspace_id = $1 AND (old_path = ANY($2::text[]) OR new_path = ANY($2::text[]))`,
      [workspaceId, [...new Set(sourcePaths)]],
    );
    return rows.map(toSupersession);
  }

  /** True when the workspace held no supersession at its last look, at most NONE_RECHECK_MS ago (else it looks again). */
  private async holdsNone(workspaceId: string): Promise<boolean> {
    const seen = this.noSupersessions.get(workspaceId);
    if (seen !== undefined && performance.now() - seen < NONE_RECHECK_MS) return true;
    const { rows } = await this.db.query<{ any: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM supersessions WHERE workspace_id = $1) AS any",
      [workspaceId],
    );
    const none = !rows[0]?.any;
    if (none) this.noSupersessions.set(workspaceId, performance.now());
    else this.noSupersessions.delete(workspaceId);
    return none;
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
