// Recall while one-chunk documents stream in (issue 43: recall p99 under such an ingest <= 2x idle): a vault of
// 50-chunk documents loaded in-process, then recalls over HTTP from one client, idle and while SMALL_WRITERS writers
// of another client send one-chunk documents.
import type { Embedder } from "../../src/ports/embedding.ts";
import { generateDocuments } from "../corpus/documents.ts";
import { generateQueries } from "../corpus/queries.ts";
import { progress } from "../lib/log.ts";
import { openRuntime } from "../lib/runtime.ts";
import { startServer } from "../lib/server.ts";
import { benchContention, type ContentionResult } from "./contention.ts";
import { SMALL_WRITERS } from "./small-ingest.ts";

export async function benchRecallUnderSmallWrites(
  dir: string,
  vocab: readonly string[],
  embedder: Embedder,
  opts: { seed: number; vaultChunks: number; documents: number; cycles: number; env?: Record<string, string> },
): Promise<ContentionResult> {
  const rt = await openRuntime(dir, embedder, opts.env);
  try {
    const vault = generateDocuments(vocab, {
      seed: opts.seed,
      chunks: opts.vaultChunks,
      minSections: 50,
      maxSections: 50,
      pathPrefix: "vault",
    });
    progress(`recall under small writes: loading ${opts.vaultChunks} chunks`);
    for (const d of vault)
      await rt.runtime.ingest.ingest(rt.workspaceId, {
        content: d.content,
        source_path: d.sourcePath,
        kind: "markdown",
      });
    const srv = await startServer(rt.runtime);
    try {
      progress(`recall under small writes: idle, then while ${SMALL_WRITERS} writers send ${opts.documents} documents`);
      // Distinct queries for the warm-up, the idle run and the loop during the ingest, so no cache flatters either.
      return await benchContention(srv, generateQueries(vocab, 8_000, opts.seed + 1), {
        idleQueries: 500,
        documents: opts.documents,
        chunksPerDocument: 1,
        seed: opts.seed + 2,
        maxSeconds: 30,
        inFlight: SMALL_WRITERS,
        cycles: opts.cycles,
      });
    } finally {
      await srv.server.close();
    }
  } finally {
    await rt.runtime.close();
  }
}
