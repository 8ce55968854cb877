// smriti/ai-sdk: the memory operations as AI SDK tools for generateText / streamText with any provider, over the typed
// client; each tool's input schema is the route's own zod schema (`ai` is the user's: a peer dependency).
import { tool, type Tool } from "ai";
import { memoryTools, toolAnswer, type SmritiSource } from "../memory-operations.ts";

export { MEMORY_OPERATIONS, type SmritiSource } from "../memory-operations.ts";

/** The memory operations keyed by their MCP tool names (service_recall, ...); each returns the route's JSON answer (or its error envelope). */
export function smritiTools(smriti: SmritiSource): Record<string, Tool> {
  return Object.fromEntries(
    memoryTools(smriti).map((op) => [
      op.name,
      tool({
        description: op.description,
        inputSchema: op.input,
        execute: async (input: unknown) => toolAnswer(op, input as never),
      }) as Tool,
    ]),
  );
}
