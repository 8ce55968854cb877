// MCP over stdio for one local agent host: serves the tools until stdin closes; stdout carries protocol JSON only.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Readable, Writable } from "node:stream";
import type { CallContext } from "../../services/context.ts";
import type { Runtime } from "../../runtime.ts";
import { createMcpServer } from "./server.ts";

export interface StdioMcp {
  /** Settles when the client hangs up (stdin ends) or close() is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveMcpStdio(
  runtime: Runtime,
  call: CallContext | (() => Promise<CallContext>),
  io: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout },
): Promise<StdioMcp> {
  const server = createMcpServer(runtime, call);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (err) => runtime.log(`mcp stdio: ${err.message}`);
  await server.connect(new StdioServerTransport(io.stdin, io.stdout));
  // The SDK transport never watches for end of input; without this the process would outlive its client.
  io.stdin.once("end", () => void server.close());
  return { closed, close: () => server.close() };
}
