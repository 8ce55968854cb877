// The memory operations as session tools: the rows of the route table that are MCP tools, with the same schemas and handlers.
import { routes, type RouteId } from "../../contract/routes.ts";
import type { Route } from "../../contract/route.ts";
import { toolSchema } from "../../contract/tool-schema.ts";
import { requireScope } from "../../services/auth.ts";
import type { ServiceHandlers } from "../../ports/route-handlers.ts";
import type { SessionTool } from "./tool.ts";

type AnyHandler = (ctx: unknown, input: unknown) => Promise<Record<string, unknown>>;

export function memoryTools(handlers: ServiceHandlers): SessionTool[] {
  return (Object.entries(routes) as [RouteId, Route][]).flatMap(([id, row]) => {
    if (row.kind === "stream" || row.kind === "service" || !row.tool) return [];
    const handler = handlers[id as keyof ServiceHandlers] as unknown as AnyHandler;
    const tool: SessionTool = {
      name: row.tool,
      description: row.description ?? row.summary,
      parameters: toolSchema(row.input, "input"),
      input: row.input,
      writes: row.writes === true,
      run: async (ctx, input) => {
        requireScope(ctx.call, row.scope); // a session's tools answer to the same table as the routes
        return { result: await handler({ ...ctx.call, yieldsToRequests: true }, input) };
      },
    };
    return [tool];
  });
}
