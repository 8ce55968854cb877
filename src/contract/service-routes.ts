// The service's own routes as rows of the route table: liveness, metrics, this API's document, MCP over HTTP.
import { service } from "./route.ts";

export const serviceRoutes = {
  healthz: service({
    scope: "none",
    method: "GET",
    path: "/healthz",
    summary: "Liveness and readiness",
    auth: false,
    response: { description: "Ready" },
  }),
  metrics: service({
    scope: "none",
    method: "GET",
    path: "/metrics",
    summary: "Prometheus exposition: per-route latency and errors, cognitive layer counters",
    auth: false,
    response: { description: "text/plain; version=0.0.4", contentType: "text/plain" },
  }),
  openapi: service({
    scope: "none",
    method: "GET",
    path: "/v1/openapi.json",
    summary: "This document: every route, generated from the same schemas that validate requests",
    auth: false,
    response: { description: "OpenAPI 3.1", contentType: "application/json" },
  }),
  stream_events: service({
    scope: "none",
    method: "GET",
    path: "/stream-events",
    summary:
      "The event types a session stream emits, each with its tier and persistence (the console handles exactly these)",
    auth: false,
    response: { description: "{ events: [{ type, tier, persisted, emitted_by }] }" },
  }),
  console: service({
    scope: "none",
    method: "GET",
    path: "/console",
    summary:
      "The operator console (a web page; sign in with a workspace token): sessions, approvals, health, memory, uplift",
    auth: false,
    response: { description: "text/html", contentType: "text/html" },
  }),
  mcp: service({
    scope: "none",
    method: "POST",
    path: "/mcp",
    summary: "The x-mcp-tool operations as MCP tools over Streamable HTTP (JSON-RPC; see the MCP specification)",
    auth: true,
    response: { description: "JSON-RPC response, or an SSE stream of them" },
  }),
};
