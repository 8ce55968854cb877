// Binds each public operation to its service call; transports look handlers up by operation id.
import type { z } from "zod";
import type { OperationId, Operations } from "../contract/operations.ts";
import type { CallContext } from "./context.ts";
import type { IngestService } from "./ingest.ts";
import type { MemoryService } from "./memory.ts";
import type { AuditService } from "./audit.ts";
import type { GroundedService } from "./grounded.ts";
import type { GroundedEvalService } from "./grounded-eval.ts";
import type { DecisionService } from "./decisions.ts";
import type { OpenLoopService } from "./open-loops.ts";

export type Handler<K extends OperationId> = (ctx: CallContext, input: z.output<Operations[K]["input"]>) => Promise<z.input<Operations[K]["output"]>>;
export type Handlers = { [K in OperationId]: Handler<K> };

export interface Services {
  memory: MemoryService;
  ingest: IngestService;
  grounded: GroundedService;
  groundedEval: GroundedEvalService;
  audit: AuditService;
  decisions: DecisionService;
  openLoops: OpenLoopService;
}

export function buildHandlers(s: Services): Handlers {
  return {
    recall: (ctx, input) => s.memory.recall(ctx.workspaceId, input, { call: ctx }),
    ingest: (ctx, input) => s.ingest.ingest(ctx.workspaceId, input, ctx),
    forget: async (ctx, input) => s.memory.forget(ctx.workspaceId, input, ctx),
    pack: (ctx, input) => s.memory.pack(ctx.workspaceId, input, { call: ctx }),
    grounded_answer: (ctx, input) => s.grounded.answer(ctx, input),
    grounded_eval: async (ctx, input) => s.groundedEval.evaluate(ctx.workspaceId, input),
    audit: async (ctx, input) => s.audit.tail(ctx, input),
    decision_extract: async (_ctx, input) => s.decisions.extract(input),
    open_loops: async (ctx, input) => s.openLoops.list(ctx.workspaceId, input),
  };
}
