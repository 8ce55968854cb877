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

/** `env` adds configuration (the sessions bench points SMRITI_LLM_BASE_URL at its paced model double). */
export async function openRuntime(
  dataDir: string,
  embedder: Embedder | null,
  env: Record<string, string> = {},
): Promise<BenchRuntime> {
  const config = loadConfig(env, { data: dataDir, port: 0, host: "127.0.0.1" });
  // background and supervise: the server's configuration (WAL checkpoints in a worker thread, re-embedding job, sessions).
  const runtime = await createRuntime(config, { embedder, log: () => {}, background: true, supervise: true });
  const ws = await runtime.store.workspaces.findWorkspace(DEFAULT_WORKSPACE);
  if (!ws) throw new Error("bench: default workspace missing");
  return { runtime, workspaceId: ws.id, dbFile: config.dbFile };
}
