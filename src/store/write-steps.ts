// The write transactions' steps, written once for both engines: a record with what commits with it, a status
// transition, a forget. A step is a generator that yields each call into its engine and resumes with the answer:
// SQLite answers at once inside its synchronous transaction (better-sqlite3 cannot hold one open across an await, and
// nothing else may run on its one connection between BEGIN IMMEDIATE and COMMIT), PostgreSQL awaits each on the
// transaction's client. The SQL both engines share is written here with `?` placeholders; each engine maps them.
import type { EventDraft } from "../ports/audit-log.ts";
import type { DocumentWrite, RemovedChunk } from "../ports/documents.ts";
import { AppError } from "../contract/errors.ts";
import type { RecordRow, RecordSideEffects, StoredRecord, Supersede, SupersessionLink } from "../ports/records.ts";
import { toRecord, type RecordTableRow } from "./rows.ts";

/** A call into the engine: its answer now (SQLite) or a promise of it (PostgreSQL). */
export type Call = () => unknown;
export type Step<T> = Generator<Call, T, unknown>;

/** What one engine does inside one of its write transactions; steps reach it only through `call`. */
export interface TxEngine {
  /** One statement with `?` placeholders; resolves to the number of rows it changed. */
  execute(sql: string, params: readonly unknown[]): number | Promise<number>;
  /** One statement with `?` placeholders; resolves to its first row. */
  get<R>(sql: string, params: readonly unknown[]): R | undefined | Promise<R | undefined>;
  /** The vectors first, then the document's chunks in place of its old ones. */
  writeDocument(workspaceId: string, write: DocumentWrite): void | Promise<void>;
  /** Extends the workspace's audit chain. */
  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): unknown;
  /** Whether a tombstone holds this key. */
  forgotten(workspaceId: string, key: ForgetKey): boolean | Promise<boolean>;
}

export type ForgetKey = { sourcePath?: string; chunkHash?: string };

/** Yields one call and returns its answer, typed as the call's. */
export function* call<T>(fn: () => T | Promise<T>): Step<T> {
  return (yield fn) as T;
}

/** Runs a step to its end in this tick: for SQLite, inside its transaction. A call answered by a promise is refused. */
export function runNow<T>(step: Step<T>): T {
  let answer: unknown;
  for (;;) {
    const next = step.next(answer);
    if (next.done) return next.value;
    answer = next.value();
    if (answer instanceof Promise)
      throw new Error("a synchronous transaction's step was answered with a promise (it would span an await)");
  }
}

/** Runs a step awaiting each call: for PostgreSQL, on its transaction's client. */
export async function runAwaiting<T>(step: Step<T>): Promise<T> {
  let answer: unknown;
  for (;;) {
    const next = step.next(answer);
    if (next.done) return next.value;
    answer = await next.value();
  }
}

export const RECORD_SQL = {
  insert: `INSERT INTO records (workspace_id, id, kind, grp, parent_id, status, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, id) DO NOTHING`,
  get: "SELECT * FROM records WHERE workspace_id = ? AND id = ?",
  transition: "UPDATE records SET status = ?, body = ? WHERE workspace_id = ? AND id = ? AND status = ?",
  rewrite: "UPDATE records SET body = ? WHERE workspace_id = ? AND id = ?",
  supersede: `INSERT INTO supersessions (workspace_id, old_id, new_id, old_path, new_path, at) VALUES (?, ?, ?, ?, ?, ?)
              ON CONFLICT (workspace_id, old_id) DO NOTHING`,
};

/** A supersessions row as both engines read it. */
export interface SupersessionTableRow {
  old_id: string;
  new_id: string;
  old_path: string;
  new_path: string;
  at: number | string;
}

export const toSupersession = (r: SupersessionTableRow): SupersessionLink => ({
  oldId: r.old_id,
  newId: r.new_id,
  oldPath: r.old_path,
  newPath: r.new_path,
  at: Number(r.at),
});

/** Inserts unless the id exists; the side effects are written only with a new record. */
export function* insertRecord(
  tx: TxEngine,
  workspaceId: string,
  record: RecordRow,
  also: RecordSideEffects | undefined,
): Step<{ record: StoredRecord; created: boolean }> {
  const created = yield* insertRow(tx, workspaceId, record);
  if (created) yield* applySideEffects(tx, workspaceId, also);
  return { record: (yield* getRecord(tx, workspaceId, record.id))!, created };
}

/** Compare-and-set of a record's status and body; the side effects land only when the status matched. */
export function* transitionRecord(
  tx: TxEngine,
  workspaceId: string,
  id: string,
  change: { from: string; to: string; body: unknown },
  also: RecordSideEffects | undefined,
): Step<StoredRecord | undefined> {
  const params = [change.to, JSON.stringify(change.body), workspaceId, id, change.from];
  if ((yield* call(() => tx.execute(RECORD_SQL.transition, params))) !== 1) return undefined;
  yield* applySideEffects(tx, workspaceId, also);
  return yield* getRecord(tx, workspaceId, id);
}

/** What a record or a document commits with it: vectors and chunks, further records, then the audit events. */
export function* applySideEffects(tx: TxEngine, workspaceId: string, also: RecordSideEffects | undefined): Step<void> {
  if (also?.supersede) yield* supersede(tx, workspaceId, also.supersede);
  const document = also?.document;
  if (document) yield* call(() => tx.writeDocument(workspaceId, document));
  for (const r of also?.records ?? []) yield* insertRow(tx, workspaceId, r);
  const events = also?.events;
  if (events?.length) yield* call(() => tx.appendEvents(workspaceId, events));
}

/** Links the old record to its replacement and stamps its body; a throw rolls the whole write back. */
function* supersede(tx: TxEngine, workspaceId: string, s: Supersede): Step<void> {
  const old = yield* getRecord(tx, workspaceId, s.oldId);
  if (!old || old.kind !== s.kind)
    throw new AppError("supersedes_not_found", `no ${s.kind} '${s.oldId}' in this workspace to supersede`, {
      supersedes: s.oldId,
    });
  const params = [workspaceId, s.oldId, s.newId, s.oldPath, s.newPath, s.at];
  if ((yield* call(() => tx.execute(RECORD_SQL.supersede, params))) !== 1) {
    const by = (old.body as { superseded_by?: unknown }).superseded_by;
    throw new AppError("already_superseded", `${s.oldId} was already superseded by ${String(by)}`, {
      supersedes: s.oldId,
      superseded_by: by,
    });
  }
  const body = { ...(old.body as object), superseded_by: s.newId, superseded_at: new Date(s.at).toISOString() };
  yield* call(() => tx.execute(RECORD_SQL.rewrite, [JSON.stringify(body), workspaceId, s.oldId]));
}

/** Removes and logs effective and repeated forgets; a target that never existed is a 404, not an event. */
export function* forget(
  tx: TxEngine,
  workspaceId: string,
  key: ForgetKey,
  draft: EventDraft | undefined,
  remove: () => RemovedChunk[] | Promise<RemovedChunk[]>,
): Step<RemovedChunk[]> {
  const removed = yield* call(remove);
  if (draft && (removed.length > 0 || (yield* call(() => tx.forgotten(workspaceId, key))))) {
    const payload = {
      ...(draft.payload as object),
      removed: removed.map((r) => ({ source_path: r.sourcePath, chunk_hash: r.chunkHash })),
    };
    yield* call(() => tx.appendEvents(workspaceId, [{ ...draft, payload }]));
  }
  return removed;
}

/** True when the row was new; an existing id is left exactly as it was. */
function* insertRow(tx: TxEngine, workspaceId: string, r: RecordRow): Step<boolean> {
  const params = [workspaceId, r.id, r.kind, r.group, r.parentId, r.status, r.createdAt, JSON.stringify(r.body)];
  return (yield* call(() => tx.execute(RECORD_SQL.insert, params))) === 1;
}

export function* getRecord(tx: TxEngine, workspaceId: string, id: string): Step<StoredRecord | undefined> {
  const row = yield* call(() => tx.get<RecordTableRow>(RECORD_SQL.get, [workspaceId, id]));
  return row && toRecord(row);
}
