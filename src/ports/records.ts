// Durable knowledge records (decisions, the three assimilation stages, memory proposals), written with their side effects.
import type { EventDraft } from "./audit-log.ts";
import type { DocumentWrite } from "./documents.ts";

/** Kinds of durable knowledge records: stored decisions, the three assimilation stages, and memory proposals. */
export type RecordKind = "decision" | "shravan" | "manan" | "nididhyasan" | "proposal";

/** A knowledge record; `body` is the JSON the service returns for it. */
export interface RecordRow {
  id: string;
  kind: RecordKind;
  /** A decision's namespace; null for kinds without one. */
  group: string | null;
  /** The record this one was made from (manan -> shravan, nididhyasan -> manan, proposal -> nididhyasan). */
  parentId: string | null;
  /** A proposal's review state; null for kinds without one. */
  status: string | null;
  createdAt: number;
  body: unknown;
}

/** A stored record with its insertion order, which keyset paging uses: later inserts never shift earlier pages. */
export interface StoredRecord extends RecordRow {
  seq: number;
}

export interface RecordQuery {
  kinds: readonly RecordKind[];
  group?: string | undefined;
  status?: string | undefined;
  /** Only records nothing was made from yet (the review queue). */
  childless?: boolean | undefined;
  /** Keyset cursor: seq strictly after (asc) or before (desc) this. */
  afterSeq?: number | undefined;
  order: "asc" | "desc";
  limit: number;
}

/** Writes committed with a record in its transaction. */
export interface RecordSideEffects {
  events?: readonly EventDraft[] | undefined;
  document?: DocumentWrite | undefined;
  /** Further new records made together with this one (e.g. the proposal of a practice record). */
  records?: readonly RecordRow[] | undefined;
  /** An earlier record of the same kind this one replaces: marked superseded in the same transaction. */
  supersede?: Supersede | undefined;
}

/** One record replacing another (issue 45, as an ADR's "Superseded by"); a record is superseded at most once. */
export interface SupersessionLink {
  oldId: string;
  newId: string;
  /** Vault paths of the two records' notes, so recall can mark their chunks. */
  oldPath: string;
  newPath: string;
  /** When the old record stopped being current. */
  at: number;
}

export interface Supersede extends SupersessionLink {
  kind: RecordKind;
}

export interface RecordStore {
  /** Inserts unless the id exists; the side effects are written only with a new record, in the same transaction. */
  insertRecord(
    workspaceId: string,
    record: RecordRow,
    also?: RecordSideEffects,
  ): Promise<{ record: StoredRecord; created: boolean }>;
  getRecord(workspaceId: string, id: string): Promise<StoredRecord | undefined>;
  childRecords(workspaceId: string, parentId: string): Promise<StoredRecord[]>;
  listRecords(workspaceId: string, query: RecordQuery): Promise<StoredRecord[]>;
  /** Supersessions whose old or new note is one of these vault paths. */
  supersessions(workspaceId: string, sourcePaths: readonly string[]): Promise<SupersessionLink[]>;
  /** How many records of each kind (and status) the workspace holds. */
  countRecords(
    workspaceId: string,
  ): Promise<{ kind: RecordKind; status: string | null; childless: boolean; count: number }[]>;
  /** Compare-and-set of a record's status and body; side effects land only when the status matched. Undefined when it did not. */
  transitionRecord(
    workspaceId: string,
    id: string,
    from: string,
    to: string,
    body: unknown,
    also?: RecordSideEffects,
  ): Promise<StoredRecord | undefined>;
}
