// Outcome feedback: an audit event per report (the durable record) and the karma ledger the ranking reads, rebuilt from those events at start.
import type { FeedbackRequest, FeedbackResponse } from "../../contract/feedback.ts";
import { FeedbackRequest as FeedbackSchema } from "../../contract/feedback.ts";
import { AppError } from "../../contract/errors.ts";
import type { KarmaLedger } from "../../cognitive/layers/karma.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AuditLog } from "../../ports/audit-log.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import type { WorkspaceStore } from "../../ports/workspaces.ts";
import { draftEvent, trajectoryRequest } from "../audit/audit.ts";
import type { CallContext } from "../../ports/call-context.ts";

export const FEEDBACK_EVENT = "memory.feedback";

export class FeedbackService {
  constructor(
    private readonly store: { documents: Pick<DocumentStore, "storedChunkHashes">; audit: AuditLog },
    private readonly ledger: KarmaLedger,
    private readonly clock: Clock,
  ) {}

  async record(call: CallContext, input: FeedbackRequest): Promise<FeedbackResponse> {
    const req = FeedbackSchema.parse(input);
    const hashes = [...new Set(req.chunk_hashes)];
    let unknown: string | undefined;
    const stored = await this.store.documents.storedChunkHashes(call.workspaceId, hashes);
    for (const h of hashes) if (!unknown && !stored.has(h)) unknown = h;
    if (unknown)
      throw new AppError("evidence_not_found", `no stored passage with chunk_hash ${unknown} in this workspace`, {
        chunk_hash: unknown,
      });
    // A report on an answer must name one this workspace gave: else it would teach the tuner nothing, silently.
    if (
      req.trajectory_id !== undefined &&
      !(await trajectoryRequest(this.store.audit, call.workspaceId, req.trajectory_id))
    )
      throw new AppError("not_found", `no trajectory '${req.trajectory_id}' in this workspace`);
    await this.store.audit.appendEvents(call.workspaceId, [
      draftEvent(
        call,
        FEEDBACK_EVENT,
        { chunk_hashes: hashes, outcome: req.outcome, ...(req.query === undefined ? {} : { query: req.query }) },
        this.clock.now().getTime(),
        req.trajectory_id ?? null,
      ),
    ]);
    this.ledger.record(call.workspaceId, hashes, req.outcome === "used");
    return { recorded: hashes.length, outcome: req.outcome };
  }
}

/** Replays every workspace's feedback events into the ledger, so learned outcomes survive a restart. */
export async function replayFeedback(
  store: { workspaces: Pick<WorkspaceStore, "listWorkspaces">; audit: AuditLog },
  ledger: KarmaLedger,
): Promise<void> {
  for (const ws of await store.workspaces.listWorkspaces())
    for (let after = 0; ;) {
      const page = await store.audit.listEvents(ws.id, { afterSeq: after, limit: 1000, types: [FEEDBACK_EVENT] });
      for (const e of page) {
        const p = JSON.parse(e.payload) as { chunk_hashes: string[]; outcome: string };
        ledger.record(ws.id, p.chunk_hashes, p.outcome === "used");
      }
      const last = page.at(-1);
      if (!last) break;
      after = last.seq;
    }
}
