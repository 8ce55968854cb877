// What the framework adapter tests run against: the OpenAI-wire model double, a service on a real port with a note,
// and a local (in-process) client over its own data directory holding the same note.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalClient, type LocalClient } from "../../src/local-client.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

export const NOTE = "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n";
export const HASH = /^sha256:[0-9a-f]{64}$/;
/** The memory operations both adapters offer, by their MCP tool names, in order. */
export const TOOL_NAMES = [
  "service_recall",
  "service_pack",
  "service_grounded_answer",
  "service_ingest",
  "service_forget",
  "service_open_loops",
];

export interface Fixture {
  wire: ChatServer;
  svc: TestService;
  server: RunningServer;
  local: LocalClient;
  close(): Promise<void>;
}

export async function startFixture(): Promise<Fixture> {
  const wire = await startChatServer();
  const svc = await startTestService();
  await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE });
  const server = await listen(svc.app, "127.0.0.1", 0);
  const dir = mkdtempSync(join(tmpdir(), "smriti-frameworks-"));
  const local = await createLocalClient({ dataDir: dir, embedder: null });
  await local.ingest({ source_path: "storage.md", content: NOTE });
  return {
    wire,
    svc,
    server,
    local,
    async close() {
      await local.close();
      await server.close();
      await svc.cleanup();
      await wire.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
