// The audit log: one hash chain of events per workspace, appended in the transaction of the change it records.
import type { HashedFields } from "../domain/audit/event-hash.ts";

/** An audit event before the store gives it a place in the workspace's hash chain. */
export interface EventDraft {
  type: string;
  actorId: string | null;
  tokenId: string | null;
  at: number;
  trajectoryId: string | null;
  payload: unknown;
}

/** A stored event: every hashed field (payload as the exact canonical JSON text that was hashed) plus its hash. */
export interface StoredEvent extends HashedFields {
  hash: string;
}

export interface EventQuery {
  /** Keyset cursor: seq strictly after (asc) or before (desc) this. */
  afterSeq?: number | undefined;
  /** By seq; asc (the chain's own order) unless said. */
  order?: "asc" | "desc" | undefined;
  limit: number;
  types?: readonly string[] | undefined;
  actorId?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  trajectoryId?: string | undefined;
}

export interface AuditLog {
  /** Appends events to the workspace's chain in one transaction, computing seq, prev_hash and hash. */
  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): Promise<StoredEvent[]>;
  listEvents(workspaceId: string, query: EventQuery): Promise<StoredEvent[]>;
  /** The last appended event's seq and hash, recorded with every append (detects events cut off the end). */
  eventHead(workspaceId: string): Promise<{ seq: number; hash: string } | undefined>;
}
