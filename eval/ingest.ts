// Loads an eval set's vaults through the ingest service: one workspace per vault.
import type { FullRuntime } from "../src/main.ts";
import { ticker } from "./progress.ts";
import type { EvalSet } from "./types.ts";

/** Ingests every document; returns vault name -> workspace id and the number of chunks stored. */
export async function ingestSet(
  runtime: FullRuntime,
  set: EvalSet,
): Promise<{ workspaces: Map<string, string>; chunks: number }> {
  const workspaces = new Map<string, string>();
  const total = set.vaults.reduce((n, v) => n + v.docs.length, 0);
  const tick = ticker(`ingest ${set.name}`, total);
  let done = 0;
  let chunks = 0;
  for (const vault of set.vaults) {
    const ws = await runtime.store.workspaces.ensureWorkspace(`eval-${set.name}-${vault.name}`, Date.now());
    workspaces.set(vault.name, ws.id);
    for (const doc of vault.docs) {
      const res = await runtime.ingest.ingest(ws.id, {
        source_path: doc.sourcePath,
        content: doc.content,
        ...(doc.timestamp ? { occurred_at: doc.timestamp } : {}),
      });
      chunks += res.chunks;
      tick(++done);
    }
  }
  return { workspaces, chunks };
}
