// The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
import { z } from "zod";
import { COGNITIVE_PREFIX, cognitiveResponses, cognitiveRoutes } from "../../contract/cognitive.ts";
import { LAYER_IDS } from "../../contract/cognitive-layers.ts";
import { ErrorBody, errorStatus } from "../../contract/errors.ts";
import { API_VERSION, operations, pathParameters } from "../../contract/operations.ts";

const json = (schema: z.ZodType, io: "input" | "output") => ({
  "application/json": { schema: z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) },
});

const actorHeader = [
  { name: "x-svc-actor-id", in: "header", required: false, schema: { type: "string" }, description: "Actor inside the workspace; must be one of the token's actors." },
];

/** GET operations take their input as path and query parameters: one per property of the input schema. */
function getParameters(path: string, schema: z.ZodType): Record<string, unknown>[] {
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, { description?: string }>; required?: string[] };
  const inPath = new Set(pathParameters(path));
  return Object.entries(js.properties ?? {}).map(([name, s]) =>
    inPath.has(name) ? { name, in: "path", required: true, schema: s, description: s.description } : { name, in: "query", required: js.required?.includes(name) ?? false, schema: s, description: s.description },
  );
}

const errors = () =>
  Object.fromEntries([...new Set(Object.values(errorStatus))].map((status) => [String(status), { description: "Error", content: json(ErrorBody, "output") }]));

/** Path parameters of the inspection routes. */
const sdkPathParameter: Record<string, object> = {
  layer_id: { type: "string", enum: [...LAYER_IDS] },
  trace_id: { type: "string", minLength: 1, maxLength: 200 },
};

/** The /sdk/cognitive inspection routes: read-only and advisory, outside the /v1 operation table (no MCP tools). */
function inspectionPaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, route] of Object.entries(cognitiveRoutes) as [keyof typeof cognitiveRoutes, (typeof cognitiveRoutes)[keyof typeof cognitiveRoutes]][]) {
    const inPath = pathParameters(route.path).map((name) => ({ name, in: "path", required: true, schema: sdkPathParameter[name] }));
    paths[COGNITIVE_PREFIX + route.path] = {
      [route.method.toLowerCase()]: {
        operationId: `cognitive_${id.replace("-", "_")}`,
        summary: route.summary,
        tags: ["cognitive inspection"],
        security: [{ bearer: [] }],
        parameters: [...actorHeader, ...inPath, ...(route.query ? getParameters(route.path, route.query) : [])],
        ...(route.body ? { requestBody: { required: true, content: json(route.body, "input") } } : {}),
        responses: { "200": { description: "OK", content: json(cognitiveResponses[id], "output") }, ...errors() },
      },
    };
  }
  return paths;
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = inspectionPaths();
  for (const [id, op] of Object.entries(operations)) {
    paths[op.path] = {
      ...paths[op.path],
      [op.method.toLowerCase()]: {
        operationId: id,
        summary: op.summary,
        description: op.description,
        ...(op.tool ? { "x-mcp-tool": op.tool } : {}),
        security: [{ bearer: [] }],
        ...(op.method === "GET" ? { parameters: [...actorHeader, ...getParameters(op.path, op.input)] } : { parameters: actorHeader, requestBody: { required: true, content: json(op.input, "input") } }),
        responses: { "200": { description: "OK", content: json(op.output, "output") }, ...errors() },
      },
    };
  }
  paths["/v1/grounded/answer/stream"] = {
    post: {
      operationId: "grounded_answer_stream",
      summary: "The grounded answer as server-sent events: run_started, step, run_complete (resume with Last-Event-ID)",
      security: [{ bearer: [] }],
      parameters: [...actorHeader, { name: "Last-Event-ID", in: "header", required: false, schema: { type: "string" }, description: "Resume after this event id (<trajectory_id>/<n>)." }],
      requestBody: { required: false, content: json(operations.grounded_answer.input, "input") },
      responses: { "200": { description: "text/event-stream of run_started, step and run_complete events", content: { "text/event-stream": { schema: { type: "string" } } } } },
    },
  };
  paths["/healthz"] = { get: { operationId: "healthz", summary: "Liveness and readiness", security: [], responses: { "200": { description: "Ready" } } } };
  paths["/metrics"] = { get: { operationId: "metrics", summary: "Prometheus exposition: per-route latency and errors, cognitive layer counters", security: [], responses: { "200": { description: "text/plain; version=0.0.4", content: { "text/plain": { schema: { type: "string" } } } } } } };
  paths["/mcp"] = {
    post: {
      operationId: "mcp",
      summary: "The x-mcp-tool operations as MCP tools over Streamable HTTP (JSON-RPC; see the MCP specification)",
      security: [{ bearer: [] }],
      parameters: actorHeader,
      responses: { "200": { description: "JSON-RPC response, or an SSE stream of them" }, ...errors() },
    },
  };
  return {
    openapi: "3.1.0",
    info: { title: "Smriti Memory API", version: API_VERSION, "x-service-version": version, description: "Memory and grounded retrieval for AI agents. Every memory-bearing response carries citations." },
    servers: [{ url: "/" }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Workspace-bound token from `smriti token create`." } } },
    paths,
  };
}
