// Audit service: records write and answer events with actor and workspace, pages them, replays trajectories.
import { AppError } from "../../contract/errors.ts";
import {
  AuditRequest as AuditRequestSchema,
  type AuditEvent,
  type AuditRequest,
  type AuditResponse,
} from "../../contract/audit.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AuditLog, EventDraft, StoredEvent } from "../../ports/audit-log.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { chainChecker, type ChainBreak } from "../../domain/audit/event-hash.ts";
import { cursorOrder, pageBySeq } from "../cursor.ts";

export class AuditService {
  constructor(
    private readonly store: AuditLog,
    private readonly clock: Clock,
  ) {}

  draft(call: CallContext, type: string, payload: unknown, trajectoryId: string | null = null): EventDraft {
    return draftEvent(call, type, payload, this.clock.now().getTime(), trajectoryId);
  }

  record(call: CallContext, drafts: readonly EventDraft[]): Promise<StoredEvent[]> {
    return this.store.appendEvents(call.workspaceId, drafts);
  }

  /** Recomputes the workspace's hash chain; the first break (edited, removed or reordered event) or null. */
  async verify(workspaceId: string): Promise<{ events: number; break: ChainBreak | null }> {
    const check = chainChecker();
    let events = 0;
    let last: StoredEvent | undefined;
    // Up to the head read first: a live service's appends meanwhile are not a break. Events past the head are checked
    // once a newer head covers them; past the newest head they are (an event written without its head).
    let head = await this.store.eventHead(workspaceId);
    for (;;) {
      const until = head?.seq ?? 0;
      while ((last?.seq ?? 0) < until) {
        const page = (await this.store.listEvents(workspaceId, { afterSeq: last?.seq ?? 0, limit: 1000 })).filter(
          (e) => e.seq <= until,
        );
        if (page.length === 0) break;
        events += page.length;
        const found = check(page);
        if (found) return { events, break: found };
        last = page.at(-1);
      }
      if (until !== (last?.seq ?? 0) || (head && head.hash !== last?.hash))
        return { events, break: { seq: until, reason: "head_mismatch" } };
      if ((await this.store.listEvents(workspaceId, { afterSeq: until, limit: 1 })).length === 0)
        return { events, break: null };
      const next = await this.store.eventHead(workspaceId);
      if ((next?.seq ?? 0) <= until) return { events, break: { seq: until, reason: "head_mismatch" } };
      head = next;
    }
  }

  async tail(call: CallContext, input: AuditRequest): Promise<AuditResponse> {
    const req = AuditRequestSchema.parse(input);
    const order = walkOrder(req, call.workspaceId);
    const page = await pageBySeq(
      call.workspaceId,
      req,
      (afterSeq, limit) =>
        this.store.listEvents(call.workspaceId, {
          afterSeq,
          order,
          limit,
          types: req.type
            ?.split(",")
            .map((t) => t.trim())
            .filter(Boolean),
          actorId: req.actor,
          since: req.since ? Date.parse(req.since) : undefined,
          until: req.until ? Date.parse(req.until) : undefined,
          trajectoryId: req.trajectory_id,
        }),
      order,
    );
    if (req.trajectory_id !== undefined && !req.cursor && page.rows.length === 0)
      throw new AppError("not_found", `no trajectory '${req.trajectory_id}' in this workspace`);
    return { events: page.rows.map(toAuditEvent), next_cursor: page.next_cursor };
  }
}

/** The event that opened a grounded answer's trajectory in this workspace (it holds the request), if any. */
export async function trajectoryRequest(
  store: AuditLog,
  workspaceId: string,
  trajectoryId: string,
): Promise<StoredEvent | undefined> {
  return (await store.listEvents(workspaceId, { trajectoryId, types: ["grounded.request"], limit: 1 }))[0];
}

/** Newest first is a tail; a replay reads in run order; a cursor continues the walk it came from; `order` says otherwise. */
function walkOrder(
  req: { order?: "newest" | "oldest" | undefined; cursor?: string | undefined; trajectory_id?: string | undefined },
  workspaceId: string,
): "asc" | "desc" {
  if (req.order) return req.order === "newest" ? "desc" : "asc";
  if (req.cursor) return cursorOrder(req.cursor, workspaceId);
  return req.trajectory_id === undefined ? "desc" : "asc";
}

/** An event draft for this caller; stores append it inside the write's own transaction. */
export function draftEvent(
  call: CallContext,
  type: string,
  payload: unknown,
  at: number,
  trajectoryId: string | null = null,
): EventDraft {
  return { type, actorId: call.actorId, tokenId: call.tokenId, at, trajectoryId, payload };
}

export function toAuditEvent(e: StoredEvent): AuditEvent {
  return {
    id: e.id,
    seq: e.seq,
    type: e.type,
    actor_id: e.actorId,
    at: new Date(e.at).toISOString(),
    trajectory_id: e.trajectoryId,
    payload: JSON.parse(e.payload) as unknown,
    prev_hash: e.prevHash,
    hash: e.hash,
  };
}
