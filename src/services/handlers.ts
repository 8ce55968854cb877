// Binds each public operation to its service call; transports look handlers up by operation id.
import type { z } from "zod";
import type { OperationId, Operations } from "../contract/operations.ts";
import type { CallContext } from "./context.ts";
import type { IngestService } from "./memory/ingest.ts";
import type { MemoryService } from "./memory/memory.ts";
import type { AuditService } from "./audit/audit.ts";
import type { GroundedService } from "./answering/grounded.ts";
import type { GroundedEvalService } from "./answering/grounded-eval.ts";
import type { DecisionService } from "./knowledge/decisions.ts";
import type { DecisionRecordService } from "./knowledge/decision-records.ts";
import type { MeetingService } from "./knowledge/meetings.ts";
import type { OpenLoopService } from "./knowledge/open-loops.ts";
import type { AssimilationService } from "./knowledge/assimilation.ts";
import type { KnowledgeStatusService } from "./knowledge/knowledge-status.ts";
import type { ProposalService } from "./knowledge/proposals.ts";
import type { FeedbackService } from "./cognitive/feedback.ts";
import type { UpliftService } from "./cognitive/uplift.ts";

export type Handler<K extends OperationId> = (ctx: CallContext, input: z.output<Operations[K]["input"]>) => Promise<z.input<Operations[K]["output"]>>;
export type Handlers = { [K in OperationId]: Handler<K> };

export interface Services {
  memory: MemoryService;
  ingest: IngestService;
  grounded: GroundedService;
  groundedEval: GroundedEvalService;
  audit: AuditService;
  decisions: DecisionService;
  decisionRecords: DecisionRecordService;
  meetings: MeetingService;
  openLoops: OpenLoopService;
  assimilation: AssimilationService;
  knowledgeStatus: KnowledgeStatusService;
  proposals: ProposalService;
  feedback: FeedbackService;
  uplift: UpliftService;
}

export function buildHandlers(s: Services): Handlers {
  return {
    recall: (ctx, input) => s.memory.recall(ctx.workspaceId, input, { call: ctx }),
    ingest: (ctx, input) => s.ingest.ingest(ctx.workspaceId, input, ctx),
    forget: async (ctx, input) => s.memory.forget(ctx.workspaceId, input, ctx),
    pack: (ctx, input) => s.memory.pack(ctx.workspaceId, input, { call: ctx }),
    feedback: async (ctx, input) => s.feedback.record(ctx, input),
    uplift: async (ctx, input) => s.uplift.uplift(ctx, input),
    shravan: (ctx, input) => s.assimilation.capture(ctx, input),
    manan: (ctx, input) => s.assimilation.reflect(ctx, input),
    nididhyasan: (ctx, input) => s.assimilation.implement(ctx, input),
    knowledge_status: async (ctx, input) => s.knowledgeStatus.status(ctx, input),
    knowledge_review: async (ctx, input) => s.knowledgeStatus.review(ctx, input),
    proposals_list: async (ctx, input) => s.proposals.list(ctx, input),
    proposal_review: (ctx, input) => s.proposals.review(ctx, input),
    grounded_answer: (ctx, input) => s.grounded.answer(ctx, input),
    grounded_eval: async (ctx, input) => s.groundedEval.evaluate(ctx.workspaceId, input),
    audit: async (ctx, input) => s.audit.tail(ctx, input),
    decision_extract: async (_ctx, input) => s.decisions.extract(input),
    decision_record: (ctx, input) => s.decisionRecords.record(ctx, input),
    decisions_list: async (ctx, input) => s.decisionRecords.list(ctx, input),
    decision_get: async (ctx, input) => s.decisionRecords.get(ctx, input),
    meeting_extract: async (_ctx, input) => s.meetings.extract(input),
    open_loops: async (ctx, input) => s.openLoops.list(ctx.workspaceId, input),
  };
}
