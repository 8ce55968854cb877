// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate requests.
import { z } from "zod";
import { ErrorBody, errorStatus } from "../../contract/errors.ts";
import { sessionEvents, type SessionEventType } from "../../contract/events.ts";
import { API_VERSION } from "../../contract/operations.ts";
import type { Operation, Route, ServiceRoute, StreamOperation } from "../../contract/route.ts";
import { pathParameters, routes } from "../../contract/routes.ts";
import type { RouteScope } from "../../contract/scopes.ts";

const json = (schema: z.ZodType, io: "input" | "output") => ({
  "application/json": { schema: z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) },
});

const actorHeader = [
  {
    name: "x-svc-actor-id",
    in: "header",
    required: false,
    schema: { type: "string" },
    description: "Actor inside the workspace; must be one of the token's actors.",
  },
];
/** OpenAPI 3.1 lets a bearer requirement list roles: the row's scope, also as x-smriti-scope ("none": any valid token). */
const bearer = (scope: RouteScope) => [{ bearer: scope === "none" ? [] : [scope] }];

/** GET operations take their input as path and query parameters: one per property of the input schema. */
function getParameters(path: string, schema: z.ZodType): Record<string, unknown>[] {
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  const inPath = new Set(pathParameters(path));
  return Object.entries(js.properties ?? {}).map(([name, s]) =>
    inPath.has(name)
      ? { name, in: "path", required: true, schema: s, description: s.description }
      : { name, in: "query", required: js.required?.includes(name) ?? false, schema: s, description: s.description },
  );
}

const errors = () =>
  Object.fromEntries(
    [...new Set(Object.values(errorStatus))].map((status) => [
      String(status),
      { description: "Error", content: json(ErrorBody, "output") },
    ]),
  );

/** The request half of a table row: parameters for a GET, a JSON body otherwise. */
const request = (row: Operation | StreamOperation, bodyRequired: boolean) =>
  row.method === "GET"
    ? { parameters: [...actorHeader, ...getParameters(row.path, row.input)] }
    : { parameters: actorHeader, requestBody: { required: bodyRequired, content: json(row.input, "input") } };

function jsonOperation(id: string, row: Operation) {
  return {
    operationId: id,
    summary: row.summary,
    ...(row.description ? { description: row.description } : {}),
    ...(row.tag ? { tags: [row.tag] } : {}),
    ...(row.tool ? { "x-mcp-tool": row.tool } : {}),
    security: bearer(row.scope),
    "x-smriti-scope": row.scope,
    ...request(row, true),
    responses: { "200": { description: "OK", content: json(row.output, "output") }, ...errors() },
  };
}

/** components.schemas name of an event's data; each stream's 200 lists its events by these refs. */
const eventSchemaName = (event: string) => `event.${event}`;

/** Every event of every stream, once: its data schema, and for session events the spec's tier and persistence. */
function eventSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of Object.values(routes) as Route[]) {
    if (row.kind !== "stream") continue;
    for (const [name, schema] of Object.entries(row.events)) {
      const session = sessionEvents[name as SessionEventType] as (typeof sessionEvents)[SessionEventType] | undefined;
      out[eventSchemaName(name)] = {
        ...z.toJSONSchema(schema, { io: "output", target: "draft-2020-12", unrepresentable: "any" }),
        ...(session ? { "x-tier": session.tier, "x-persisted": session.persisted } : {}),
      };
    }
  }
  return out;
}

/** A stream's body is optional: a resuming request sends only Last-Event-ID. */
function streamOperation(id: string, row: StreamOperation) {
  const { parameters, ...body } = request(row, false);
  const names = Object.keys(row.events);
  const data = {
    description: "The JSON `data:` of each event, by its `event:` name (x-events).",
    oneOf: names.map((n) => ({ $ref: `#/components/schemas/${eventSchemaName(n)}` })),
  };
  return {
    operationId: id,
    summary: row.summary,
    security: bearer(row.scope),
    "x-smriti-scope": row.scope,
    parameters: [
      ...parameters,
      { name: "Last-Event-ID", in: "header", required: false, schema: { type: "string" }, description: row.resume },
    ],
    ...body,
    responses: {
      "200": {
        description: `text/event-stream of ${names.slice(0, -1).join(", ")} and ${names.at(-1)} events`,
        "x-events": names,
        content: { "text/event-stream": { schema: data } },
      },
      ...errors(),
    },
  };
}

function serviceOperation(id: string, row: ServiceRoute) {
  const type = row.response.contentType === "application/json" ? "object" : "string";
  const content = row.response.contentType ? { content: { [row.response.contentType]: { schema: { type } } } } : {};
  return {
    operationId: id,
    summary: row.summary,
    security: row.auth ? bearer(row.scope) : [],
    "x-smriti-scope": row.scope,
    ...(row.auth ? { parameters: actorHeader } : {}),
    responses: { "200": { description: row.response.description, ...content }, ...(row.auth ? errors() : {}) },
  };
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, row] of Object.entries(routes) as [string, Route][]) {
    const entry =
      row.kind === "service"
        ? serviceOperation(id, row)
        : row.kind === "stream"
          ? streamOperation(id, row)
          : jsonOperation(id, row);
    paths[row.path] = { ...paths[row.path], [row.method.toLowerCase()]: entry };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Smriti Memory API",
      version: API_VERSION,
      "x-service-version": version,
      description: "Memory and grounded retrieval for AI agents. Every memory-bearing response carries citations.",
    },
    servers: [{ url: "/" }],
    components: {
      schemas: eventSchemas(),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Workspace-bound token from `smriti token create`." },
      },
    },
    paths,
  };
}
