// The audit log route: tail a workspace's hash-chained event log, or replay one trajectory.
import { z } from "zod";

const isoTime = z.iso.datetime({ offset: true });

export const AuditRequest = z
  .strictObject({
    cursor: z
      .string()
      .max(200)
      .optional()
      .describe("next_cursor of the previous page; pages never skip or repeat events."),
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Events per page (1-1000)."),
    type: z.string().max(500).optional().describe("Comma-separated event types, e.g. 'memory.ingest,grounded.answer'."),
    actor: z.string().max(200).optional().describe("Only events by this actor id."),
    since: isoTime.optional().describe("Only events at or after this time."),
    until: isoTime.optional().describe("Only events before this time."),
    trajectory_id: z.string().max(100).optional().describe("Replay: every event of this trajectory, in order."),
    order: z
      .enum(["newest", "oldest"])
      .optional()
      .describe(
        "newest first (the default: a tail) or oldest first (the default with trajectory_id: replay order). A cursor continues the walk it came from (another order with it is 400 invalid_cursor).",
      ),
  })
  .describe("Tail the workspace's append-only event log.");
export type AuditRequest = z.input<typeof AuditRequest>;

export const AuditEvent = z.object({
  id: z.string(),
  seq: z.number().int().describe("Position in the workspace's chain, from 1."),
  type: z.string(),
  actor_id: z.string().nullable(),
  at: z.iso.datetime(),
  trajectory_id: z.string().nullable(),
  payload: z
    .unknown()
    .describe(
      "Event-specific data, by type (the spec's audit events: memory.ingest, memory.forget, record transitions, ...).",
    ),
  prev_hash: z.string().describe("hash of the previous event (sha256:000… for the first)."),
  hash: z
    .string()
    .describe("sha256 over this event's fields and prev_hash; `smriti audit verify` recomputes the chain."),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditResponse = z.object({
  events: z.array(AuditEvent),
  next_cursor: z.string().nullable().describe("Pass as cursor to continue; null when there is nothing more right now."),
});
export type AuditResponse = z.infer<typeof AuditResponse>;
