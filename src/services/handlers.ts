// Binds each service row of the route table to its service call (the handler types: ports/route-handlers.ts).
import { AppError } from "../contract/errors.ts";
import type { CognitiveStack } from "../cognitive/stack.ts";
import type { AnswerStreams } from "./answering/answer-stream.ts";
import {
  chittaOf,
  functionalStateOf,
  goalsOf,
  healthOf,
  identityOf,
  karmaOf,
  layersOf,
  layerState,
  snapshotOf,
  stateOf,
} from "./cognitive/inspection.ts";
import { processQuery } from "./cognitive/process.ts";
import { TRACES_KEPT, type TraceLog } from "./cognitive/traces.ts";
import type { ServiceHandlers, ServiceStreamHandlers } from "../ports/route-handlers.ts";
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
import type { AuthService } from "./auth.ts";

/** First page of open loops goals shows: sankalpa's view, not a listing API (that is GET /v1/open_loops). */
const GOAL_LOOPS = 20;

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
  cognitive: CognitiveStack;
  traces: TraceLog;
  answerStreams: AnswerStreams;
  auth: AuthService;
}

export function buildHandlers(s: Services): ServiceHandlers {
  return {
    recall: (ctx, input) => s.memory.recall(ctx.workspaceId, input, { call: ctx }),
    ingest: (ctx, input) => s.ingest.ingest(ctx.workspaceId, input, ctx),
    forget: async (ctx, input) => s.memory.forget(ctx.workspaceId, input, ctx),
    pack: (ctx, input) => s.memory.pack(ctx.workspaceId, input, { call: ctx }),
    source_get: (ctx, input) => s.memory.source(ctx.workspaceId, input),
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
    cognitive_health: (ctx) => healthOf(s.cognitive, ctx.workspaceId),
    cognitive_snapshot: (ctx) => snapshotOf(s.cognitive, ctx.workspaceId),
    cognitive_layers: async (ctx) => ({ layers: await layersOf(s.cognitive, ctx.workspaceId) }),
    cognitive_layer: (ctx, input) => layerState(s.cognitive, ctx.workspaceId, input.layer_id),
    cognitive_state: (_ctx, input) => stateOf(s.cognitive, input.limit),
    cognitive_goals: async (ctx) =>
      goalsOf(s.cognitive, ctx.workspaceId, await s.openLoops.list(ctx.workspaceId, { limit: GOAL_LOOPS })),
    cognitive_karma: (ctx) => karmaOf(s.cognitive, ctx.workspaceId),
    cognitive_chitta: (ctx) => chittaOf(s.cognitive, ctx.workspaceId),
    cognitive_identity: (ctx) => identityOf(s.cognitive, ctx),
    cognitive_functional_state: (ctx) => functionalStateOf(s.cognitive, ctx.workspaceId),
    cognitive_process: (ctx, input) => processQuery(s.grounded, s.traces, ctx, input),
    whoami: (ctx) => s.auth.whoami(ctx),
    cognitive_trace: async (ctx, input) => {
      // Traces are keyed by an unguessable id and stored with their workspace; another workspace's id is 404 as well.
      const trace = await s.traces.get(input.trace_id, ctx.workspaceId);
      if (!trace)
        throw new AppError(
          "not_found",
          `no trace '${input.trace_id}' in this workspace (the newest ${TRACES_KEPT} are kept)`,
        );
      return trace;
    },
  };
}

export function buildStreamHandlers(s: Pick<Services, "answerStreams">): ServiceStreamHandlers {
  return {
    grounded_answer_stream: (ctx, input, lastEventId, signal) => s.answerStreams.open(ctx, input, lastEventId, signal),
  };
}
