// What the harness knows of a tool: its schema as the model reads it, whether it writes, and how to run it.
import type { z } from "zod";
import type { CallContext } from "../../ports/call-context.ts";

export interface ToolContext {
  call: CallContext;
  sessionId: string;
  /** The session's own directory for file tools (created on first use). */
  taskDir: string;
}

export interface ToolRun {
  result: Record<string, unknown>;
  /** The result is something the session produced (a file): tool_outcome status artifact. */
  artifact?: boolean;
}

export interface SessionTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (what the model is shown). */
  parameters: Record<string, unknown>;
  /** Validates the arguments the model wrote. */
  input: z.ZodType;
  writes: boolean;
  /** Needs the session's task workspace: offered to write-capable sessions only, and run under the sandbox. */
  files?: boolean;
  run(ctx: ToolContext, input: unknown, signal: AbortSignal): Promise<ToolRun>;
}
