// A real HTTP server for a runtime on an ephemeral loopback port, plus a token to call it with.
import { createHttpApp } from "../../src/transports/http/app.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import type { FullRuntime } from "../../src/main.ts";
import { DEFAULT_WORKSPACE } from "../../src/services/auth.ts";

export interface BenchServer {
  server: RunningServer;
  url: string;
  token: string;
}

export async function startServer(runtime: FullRuntime): Promise<BenchServer> {
  const { token } = await runtime.auth.issue({ workspace: DEFAULT_WORKSPACE, label: "bench" });
  const server = await listen(createHttpApp(runtime), "127.0.0.1", 0);
  return { server, url: server.url, token };
}
