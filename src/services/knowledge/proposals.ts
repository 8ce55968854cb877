// Governed long-term memory: a practice artefact proposed for memory reaches the vault only when a named reviewer approves it.
import {
  ProposalListRequest as ListSchema,
  ProposalReviewRequest as ReviewSchema,
  type Proposal,
  type ProposalListRequest,
  type ProposalListResponse,
  type ProposalReviewRequest,
} from "../../contract/assimilation.ts";
import { AppError } from "../../contract/errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { RecordStore } from "../../ports/records.ts";
import { draftEvent } from "../audit/audit.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { pageBySeq } from "../cursor.ts";
import type { IngestService } from "../memory/ingest.ts";

export class ProposalService {
  constructor(
    private readonly store: RecordStore,
    private readonly ingest: IngestService,
    private readonly clock: Clock,
  ) {}

  async list(call: CallContext, input: ProposalListRequest): Promise<ProposalListResponse> {
    const req = ListSchema.parse(input);
    const page = await pageBySeq(call.workspaceId, req, (afterSeq, limit) =>
      this.store.listRecords(call.workspaceId, {
        kinds: ["proposal"],
        status: req.status,
        afterSeq,
        order: "asc",
        limit,
      }),
    );
    return { proposals: page.rows.map((r) => r.body as Proposal), next_cursor: page.next_cursor };
  }

  /** Approve stores the artefact note in the vault, in the same transaction as the status change and its audit event. */
  async review(call: CallContext, input: ProposalReviewRequest): Promise<Proposal> {
    const req = ReviewSchema.parse(input);
    const ws = call.workspaceId;
    if (!call.actorId)
      throw new AppError(
        "reviewer_required",
        "reviewing a memory proposal needs an x-svc-actor-id naming the reviewer (the audit log records who approved what)",
      );
    const found = await this.store.getRecord(ws, req.proposal_id);
    if (!found || found.kind !== "proposal")
      throw new AppError("not_found", `no proposal '${req.proposal_id}' in this workspace`);
    const proposal = found.body as Proposal;
    if (proposal.status !== "pending")
      throw new AppError("wrong_stage", `proposal ${proposal.id} was already ${proposal.status}`, {
        status: proposal.status,
      });
    if (proposal.proposed_by !== null && proposal.proposed_by === call.actorId)
      throw new AppError("self_review_forbidden", `${call.actorId} proposed ${proposal.id} and cannot also review it`);

    const now = this.clock.now();
    const status = req.verdict === "approve" ? "approved" : "rejected";
    const reviewed: Proposal = {
      ...proposal,
      status,
      reviewed_at: now.toISOString(),
      reviewed_by: call.actorId,
      note: req.note ?? null,
    };
    const write =
      status === "approved"
        ? (await this.ingest.prepareNote(ws, proposal.target_source_path, proposal.content, now)).write
        : undefined;
    const event = draftEvent(
      call,
      `knowledge.proposal_${status}`,
      {
        id: proposal.id,
        nididhyasan_id: proposal.nididhyasan_id,
        target_source_path: proposal.target_source_path,
        note: reviewed.note,
      },
      now.getTime(),
    );
    const done = await this.store.transitionRecord(ws, proposal.id, "pending", status, reviewed, {
      events: [event],
      document: write,
    });
    if (!done) throw new AppError("wrong_stage", `proposal ${proposal.id} was reviewed concurrently`);
    return reviewed;
  }
}
