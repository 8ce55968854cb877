// MCP SDK client helpers shared by the MCP tests: connect over Streamable HTTP, call a tool, read an error envelope.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { operations } from "../../src/contract/operations.ts";
import type { Operation } from "../../src/contract/route.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { mountMcpHttp } from "../../src/transports/mcp/http.ts";
import { startTestService, type TestService, type TestServiceOptions } from "./runtime.ts";

/** The service's HTTP app with MCP mounted at /mcp, on an ephemeral loopback port. */
export function listenWithMcp(svc: TestService): Promise<RunningServer> {
  return listen(
    createHttpApp(svc.runtime, (a) => mountMcpHttp(a, svc.runtime)),
    "127.0.0.1",
    0,
  );
}

/** A test service with MCP mounted for the calling file: started before its tests, clients closed after each, all torn down at the end. */
export function useMcpService(opts: TestServiceOptions = {}): {
  readonly svc: TestService;
  readonly server: RunningServer;
  connect(headers?: Record<string, string>): Promise<Client>;
} {
  let svc: TestService | undefined;
  let server: RunningServer | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    svc = await startTestService(opts);
    server = await listenWithMcp(svc);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server?.close();
    await svc?.cleanup();
  });
  return {
    get svc() {
      if (!svc) throw new Error("useMcpService: the service starts in beforeAll");
      return svc;
    },
    get server() {
      if (!server) throw new Error("useMcpService: the server starts in beforeAll");
      return server;
    },
    /** An MCP client with the default token; `headers` add to it (an x-svc-actor-id, say). */
    connect: (headers = {}) => connectMcp(server!.url, { authorization: `Bearer ${svc!.token}`, ...headers }, clients),
  };
}

/** Connects and lists tools first, so the client validates every structuredContent against the tool's outputSchema. */
export async function connectMcp(url: string, headers: Record<string, string>, track: Client[]): Promise<Client> {
  const client = new Client({ name: "smriti-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers } }));
  track.push(client);
  await client.listTools();
  return client;
}

/** Calls a tool that must succeed; its text item must mirror structuredContent for clients that only read text. */
export async function callTool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
  const first = res.content[0];
  expect(first?.type === "text" ? JSON.parse(first.text) : undefined).toEqual(res.structuredContent);
  return res.structuredContent as T;
}

/** The error envelope of an isError result. */
export function toolError<D = unknown>(res: unknown): { code: string; message: string; details?: D } {
  const r = res as CallToolResult;
  expect(r.isError).toBe(true);
  const first = r.content[0];
  if (first?.type !== "text") throw new Error("expected a text item");
  return (JSON.parse(first.text) as { error: { code: string; message: string; details?: D } }).error;
}

/** Every MCP tool name of the operation table, sorted: what a tools/list must return, no more and no less. */
export function tableTools(): string[] {
  return Object.values(operations)
    .flatMap((o: Operation) => (o.tool ? [o.tool] : []))
    .sort();
}
