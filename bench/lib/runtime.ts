// Opens the real runtime (createRuntime) on a bench data directory, with the embedder chosen by the bench.
import { loadConfig } from "../../src/config.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { DEFAULT_WORKSPACE } from "../../src/services/auth.ts";

export interface BenchRuntime {
  runtime: FullRuntime;
  workspaceId: string;
  dbFile: string;
}

export async function openRuntime(dataDir: string, embedder: Embedder | null): Promise<BenchRuntime> {
  const config = loadConfig({}, { data: dataDir, port: 0, host: "127.0.0.1" });
  // background: the server's configuration (WAL checkpoints in a worker thread, re-embedding job).
  const runtime = await createRuntime(config, { embedder, log: () => {}, background: true });
  const ws = await runtime.store.findWorkspace(DEFAULT_WORKSPACE);
  if (!ws) throw new Error("bench: default workspace missing");
  return { runtime, workspaceId: ws.id, dbFile: config.dbFile };
}
