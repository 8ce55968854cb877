// Table rows as both stores return them (the two schemas share column names) and how each becomes a port's record.
import { Scope } from "../contract/scopes.ts";
import type { DocumentKind } from "../domain/text/chunk.ts";
import type { StoredEvent } from "../ports/audit-log.ts";
import type { StoredCognitiveRecord } from "../ports/cognitive.ts";
import type { StreamEvent } from "../ports/event-log.ts";
import type { ChunkRecord, DocumentRecord, RemovedChunk } from "../ports/documents.ts";
import type { RecordKind, StoredRecord } from "../ports/records.ts";
import { OPENING_CHARS, type ChunkChange, type IndexedChunk } from "../ports/search-feed.ts";
import type { SessionKind, StoredSessionRow } from "../ports/session-index.ts";
import type { TokenRecord, Workspace } from "../ports/workspaces.ts";

export interface TokenRow {
  id: string;
  workspace_id: string;
  actors: string;
  label: string | null;
  /** A JSON array of scopes. */
  scopes: string;
  created_at: number;
  revoked_at: number | null;
}

export const toWorkspace = (r: { id: string; name: string; created_at: number }): Workspace => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
});
export const toToken = (r: TokenRow): TokenRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  actors: JSON.parse(r.actors) as string[],
  label: r.label,
  scopes: Scope.array().parse(JSON.parse(r.scopes)),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** The changes log's op column. */
export const OP_ADD = 1;
export const OP_REMOVE = 0;

export interface ChunkRow {
  id: number;
  source_path: string;
  ord: number;
  chunk_hash: string;
  anchor: string;
  start_offset: number;
  end_offset: number;
  text: string;
  authored_at: number;
  undated: number;
}

/** A chunk's stored terms are read only by the search feed: a recall's rows carry the text, half the bytes. */
export const CHUNK_COLUMNS =
  "id, source_path, ord, chunk_hash, anchor, start_offset, end_offset, text, authored_at, undated";

export const toChunk = (r: ChunkRow): ChunkRecord => ({
  id: r.id,
  sourcePath: r.source_path,
  ord: r.ord,
  chunkHash: r.chunk_hash,
  anchor: r.anchor,
  start: r.start_offset,
  end: r.end_offset,
  text: r.text,
  authoredAt: r.authored_at,
  ...(r.undated ? { undated: true } : {}),
});

export const toRemoved = (c: ChunkRecord): RemovedChunk => ({
  sourcePath: c.sourcePath,
  chunkHash: c.chunkHash,
  anchor: c.anchor,
});

export interface DocRow {
  source_path: string;
  document_hash: string;
  kind: DocumentKind;
  authored_at: number;
  ingested_at: number;
  content: string;
  analysis: number;
}

export const toDocument = (r: DocRow): DocumentRecord => ({
  sourcePath: r.source_path,
  documentHash: r.document_hash,
  kind: r.kind,
  authoredAt: r.authored_at,
  ingestedAt: r.ingested_at,
  content: r.content,
  analysis: Number(r.analysis),
});

/** The select-list column IndexedRow.opening is read from (SQLite and PostgreSQL alike), `alias` the chunks table's. */
export const opening = (alias: string): string => `substr(${alias}text, 1, ${OPENING_CHARS}) AS opening`;

export interface IndexedRow {
  id: number;
  source_path: string;
  terms: string;
  authored_at: number;
  chunk_hash: string;
  opening: string;
}

export const toIndexed = (r: IndexedRow): IndexedChunk => ({
  id: r.id,
  sourcePath: r.source_path,
  terms: r.terms,
  authoredAt: r.authored_at,
  chunkHash: r.chunk_hash,
  opening: r.opening,
});

/** A changes row joined with its chunk (null columns when the chunk is gone). */
export interface ChangeRow {
  seq: number;
  workspace_id: string;
  chunk_id: number;
  op: number;
  source_path: string | null;
  terms: string | null;
  authored_at: number | null;
  chunk_hash: string | null;
  opening: string | null;
}

export const toChange = (r: ChangeRow): ChunkChange => ({
  seq: r.seq,
  workspaceId: r.workspace_id,
  chunkId: r.chunk_id,
  removed: r.op !== OP_ADD,
  chunk:
    r.op === OP_ADD && r.terms !== null
      ? toIndexed({
          id: r.chunk_id,
          source_path: r.source_path!,
          terms: r.terms,
          authored_at: r.authored_at!,
          chunk_hash: r.chunk_hash!,
          opening: r.opening!,
        })
      : null,
});

/** A page cursor is the last row's (source_path, id); the first page starts before every row. */
export const after = (cursor: string | null): [string, number] =>
  cursor ? (JSON.parse(cursor) as [string, number]) : ["", 0];
export const nextCursor = (rows: readonly { id: number; source_path: string }[], limit: number): string | null =>
  rows.length < limit ? null : JSON.stringify([rows.at(-1)!.source_path, rows.at(-1)!.id]);

export interface EventRow {
  workspace_id: string;
  seq: number;
  id: string;
  type: string;
  actor_id: string | null;
  token_id: string | null;
  at: number;
  trajectory_id: string | null;
  payload: string;
  prev_hash: string;
  hash: string;
}

export const toEvent = (r: EventRow): StoredEvent => ({
  workspaceId: r.workspace_id,
  seq: r.seq,
  id: r.id,
  type: r.type,
  actorId: r.actor_id,
  tokenId: r.token_id,
  at: r.at,
  trajectoryId: r.trajectory_id,
  payload: r.payload,
  prevHash: r.prev_hash,
  hash: r.hash,
});

export interface RecordTableRow {
  seq: number;
  id: string;
  kind: RecordKind;
  grp: string | null;
  parent_id: string | null;
  status: string | null;
  created_at: number;
  body: string;
}

export const toRecord = (r: RecordTableRow): StoredRecord => ({
  seq: r.seq,
  id: r.id,
  kind: r.kind,
  group: r.grp,
  parentId: r.parent_id,
  status: r.status,
  createdAt: r.created_at,
  body: JSON.parse(r.body) as unknown,
});

export interface SessionTableRow {
  seq: number;
  workspace_id: string;
  session_id: string;
  kind: SessionKind;
  status: string;
  state: string;
  state_seq: number;
  created_at: number;
  updated_at: number;
  heartbeat_at: number | null;
  owner: string | null;
}

export const toSession = (r: SessionTableRow): StoredSessionRow => ({
  seq: r.seq,
  workspaceId: r.workspace_id,
  sessionId: r.session_id,
  kind: r.kind,
  status: r.status,
  state: JSON.parse(r.state) as Record<string, unknown>,
  stateSeq: Number(r.state_seq),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  heartbeatAt: r.heartbeat_at,
  owner: r.owner,
});

export interface StreamEventRow {
  stream: string;
  seq: number;
  type: string;
  at: number;
  data: string;
}

export const toStreamEvent = (r: StreamEventRow): StreamEvent => ({
  stream: r.stream,
  seq: r.seq,
  type: r.type,
  at: r.at,
  data: JSON.parse(r.data) as unknown,
});

export interface CognitiveRecordRow {
  seq: number;
  kind: string;
  workspace_id: string | null;
  at: number;
  payload: string;
}

export const toCognitiveRecord = (r: CognitiveRecordRow): StoredCognitiveRecord => ({
  seq: r.seq,
  kind: r.kind,
  workspaceId: r.workspace_id,
  at: r.at,
  payload: JSON.parse(r.payload) as unknown,
});
