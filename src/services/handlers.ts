// Binds each public operation to its service call; transports look handlers up by operation id.
import type { z } from "zod";
import type { OperationId, Operations } from "../contract/operations.ts";
import type { CallContext } from "./context.ts";
import type { IngestService } from "./ingest.ts";
import type { MemoryService } from "./memory.ts";

export type Handler<K extends OperationId> = (ctx: CallContext, input: z.output<Operations[K]["input"]>) => Promise<z.input<Operations[K]["output"]>>;
export type Handlers = { [K in OperationId]: Handler<K> };

export function buildHandlers(s: { memory: MemoryService; ingest: IngestService }): Handlers {
  return {
    recall: (ctx, input) => s.memory.recall(ctx.workspaceId, input),
    ingest: (ctx, input) => s.ingest.ingest(ctx.workspaceId, input),
    forget: async (ctx, input) => s.memory.forget(ctx.workspaceId, input),
    pack: (ctx, input) => s.memory.pack(ctx.workspaceId, input),
  };
}
