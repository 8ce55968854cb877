// MCP tools generated from the operation table: the same zod schemas, handlers and error envelope as the HTTP routes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError, errorBody, toAppError, validationError } from "../../contract/errors.ts";
import type { Operation, Route } from "../../contract/route.ts";
import { allows } from "../../contract/scopes.ts";
import { toolSchema } from "../../contract/tool-schema.ts";
import { routes, type JsonRouteId, type RouteId } from "../../contract/routes.ts";
import { requireScope } from "../../services/auth.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { Runtime } from "../../runtime.ts";

/** Tool name -> JSON route, for every row of the route table that names a tool. */
const toolRoutes = new Map<string, { id: JsonRouteId; row: Operation }>(
  (Object.entries(routes) as [RouteId, Route][]).flatMap(([id, row]) =>
    row.kind !== "stream" && row.kind !== "service" && row.tool
      ? [[row.tool, { id: id as JsonRouteId, row }] as const]
      : [],
  ),
);

// Computed once: the table is static and a stateless HTTP server builds a server per request.
const toolDefinitions: Tool[] = [...toolRoutes].map(([name, { row }]) => ({
  name,
  title: row.summary,
  description: row.description,
  inputSchema: toolSchema(row.input, "input") as Tool["inputSchema"],
  outputSchema: toolSchema(row.output, "output") as Tool["outputSchema"],
  annotations: { readOnlyHint: !row.writes },
}));

/** Renders an AppError as an isError result carrying the HTTP error envelope, so clients branch on the same codes. */
export function toolError(err: AppError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorBody(err)) }] };
}

/**
 * Builds the MCP server; a `call` function is resolved on every tool call, so it can re-check the token each time.
 * Low-level Server rather than McpServer.registerTool: McpServer validates arguments itself and answers failures with
 * free text, while ours must run the full zod schema (e.g. forget's exactly-one-of union) and return the invalid_request envelope.
 */
export function createMcpServer(runtime: Runtime, call: CallContext | (() => Promise<CallContext>)): Server {
  const server = new Server({ name: "smriti", version: runtime.version }, { capabilities: { tools: {} } });
  // Only the tools the token may call: an agent is not offered what would answer insufficient_scope.
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const ctx = typeof call === "function" ? await call() : call;
    return { tools: toolDefinitions.filter((t) => allows(ctx.scopes, toolRoutes.get(t.name)!.row.scope)) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = toolRoutes.get(request.params.name);
    if (!tool) return toolError(new AppError("not_found", `no tool '${request.params.name}'; call tools/list`));
    const op = tool.row;
    const handler = runtime.handlers[tool.id] as (
      call: CallContext,
      input: unknown,
    ) => Promise<Record<string, unknown>>;
    try {
      const ctx = typeof call === "function" ? await call() : call;
      requireScope(ctx, op.scope);
      const parsed = op.input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) return toolError(validationError(parsed.error));
      const output = await handler(ctx, parsed.data);
      return { structuredContent: output, content: [{ type: "text", text: JSON.stringify(output) }] };
    } catch (err) {
      return toolError(toAppError(err, runtime.log));
    }
  });
  return server;
}
