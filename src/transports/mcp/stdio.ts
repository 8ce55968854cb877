// MCP over stdio for one local agent host: serves the tools until stdin closes; stdout carries protocol JSON only.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Readable, Writable } from "node:stream";
import type { CallContext } from "../../ports/call-context.ts";
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

/** JSON-RPC's range for a server's own errors: the request was understood but this server refuses to serve. */
const SERVER_REFUSED = -32001;

/**
 * A server that cannot start still answers: the client's first request (its `initialize`) gets a JSON-RPC error
 * naming the cause, so an agent host shows "unauthorized: ..." instead of "Connection closed". Settles after that
 * answer, or when stdin ends first.
 */
export function refuseStdio(
  code: string,
  message: string,
  io: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  return new Promise((resolve) => {
    let buffered = "";
    const done = () => {
      io.stdin.off("data", onData);
      io.stdin.pause();
      resolve();
    };
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        const id = requestId(line);
        if (id === undefined) continue; // a notification or noise: nothing to answer
        const error = { code: SERVER_REFUSED, message: `${code}: ${message}`, data: { error: { code, message } } };
        io.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`, () => done());
        return;
      }
    };
    io.stdin.on("data", onData);
    io.stdin.once("end", done);
  });
}

function requestId(line: string): string | number | undefined {
  try {
    const msg = JSON.parse(line) as { id?: unknown };
    return typeof msg.id === "string" || typeof msg.id === "number" ? msg.id : undefined;
  } catch {
    return undefined;
  }
}
