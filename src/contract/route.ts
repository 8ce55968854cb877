// The shape of one row of the route table: JSON operations (most with an MCP tool), event streams, and the service's own routes.
import type { z } from "zod";
import type { RouteScope } from "./scopes.ts";

/** An HTTP JSON operation; with `tool` it is also an MCP tool. */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  kind?: "json";
  method: "GET" | "POST";
  /** `{name}` segments are path parameters: input fields carried in the URL. */
  path: string;
  /** MCP tool name; absent for HTTP-only operations. */
  tool?: string;
  /** What the token must carry (README "Tokens and scopes"); the HTTP loop and the MCP server check it before the input. */
  scope: RouteScope;
  summary: string;
  /** Written for the agents that read MCP tool lists (tools need one). */
  description?: string;
  /** Changes what the workspace holds: sessions ask for approval before it (approval_mode on-write); MCP marks the rest read-only. */
  writes?: boolean;
  /** An OpenAPI tag grouping the row (the inspection routes). */
  tag?: string;
  input: I;
  output: O;
}

/** A server-sent event stream: its events carry `id:` and a client resumes by sending the last one as Last-Event-ID. */
export interface StreamOperation<I extends z.ZodType = z.ZodType> {
  kind: "stream";
  method: "GET" | "POST";
  path: string;
  scope: RouteScope;
  summary: string;
  /** The request (POST body or GET parameters) that starts a stream; a resuming request sends Last-Event-ID instead. */
  input: I;
  /** The event types the stream sends, by name. */
  events: Record<string, z.ZodType>;
  /** What Last-Event-ID holds, for the OpenAPI document. */
  resume: string;
}

/** One of the service's own routes (health, metrics, this document, MCP): no table-driven handler. */
export interface ServiceRoute {
  kind: "service";
  method: "GET" | "POST";
  path: string;
  /** "none" for the public ones; /mcp takes any valid token and each tool checks its row's scope. */
  scope: RouteScope;
  summary: string;
  /** Behind the bearer token (and the actor header) like the operations. */
  auth: boolean;
  response: { description: string; contentType?: string };
}

export type Route = Operation | StreamOperation | ServiceRoute;

export const op = <I extends z.ZodType, O extends z.ZodType>(o: Operation<I, O>) => o;
export const stream = <I extends z.ZodType>(o: Omit<StreamOperation<I>, "kind">): StreamOperation<I> => ({
  kind: "stream",
  ...o,
});
export const service = (o: Omit<ServiceRoute, "kind">): ServiceRoute => ({ kind: "service", ...o });

/** One event as a stream sends it (id, event name, JSON data). */
export interface StreamMessage {
  id: string;
  event: string;
  data: unknown;
}
