// The one route table: every HTTP route of the service as a row. One loop mounts them, one builds the MCP tools from
// the rows that name a tool, one writes the OpenAPI document, and the client is typed from them.
import type { z } from "zod";
import { authRoutes } from "./auth.ts";
import { backgroundRoutes } from "./background.ts";
import { cognitiveRoutes } from "./cognitive.ts";
import { operations } from "./operations.ts";
import type { Operation, StreamOperation } from "./route.ts";
import { serviceRoutes } from "./service-routes.ts";
import { sessionRoutes } from "./sessions.ts";
import { streamRoutes } from "./streams.ts";

export const routes = {
  ...operations,
  ...streamRoutes,
  ...sessionRoutes,
  ...backgroundRoutes,
  ...cognitiveRoutes,
  ...authRoutes,
  ...serviceRoutes,
};

export type Routes = typeof routes;
/** The rows the session runtime answers (src/sessions builds them); the services answer the rest. */
export type SessionRouteId = keyof typeof sessionRoutes | keyof typeof backgroundRoutes;
export const sessionRouteIds: ReadonlySet<RouteId> = new Set(
  Object.keys({ ...sessionRoutes, ...backgroundRoutes }) as SessionRouteId[],
);
export type RouteId = keyof Routes;
/** Rows answered with one JSON body: the Memory API operations and the inspection routes. */
export type JsonRouteId = { [K in RouteId]: Routes[K] extends Operation ? K : never }[RouteId];
export type StreamRouteId = { [K in RouteId]: Routes[K] extends StreamOperation ? K : never }[RouteId];

export type RouteInput<K extends JsonRouteId | StreamRouteId> = z.input<Routes[K]["input"]>;
export type RouteOutput<K extends JsonRouteId> = z.output<Routes[K]["output"]>;

/** Names of a path's `{name}` parameters, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The path with its parameters filled from the input (URL-encoded). */
export function fillPath(path: string, input: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name] ?? "")));
}
