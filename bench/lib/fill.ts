// Loads documents WITHOUT measuring, when the measured ingest ran out of its time budget, so the recall
// benchmarks still run at full size: lexical ingest through the real service, then vectors written in bulk.
//
// The vectors go straight into the `embeddings` table (the store's own codec, toBlob) instead of through
// store.documents.putEmbeddings, whose per-hash change announcement is what made the measured path too slow.
// Recall then loads them exactly as it loads vectors written by ingest (the search engine's first load).
import Database from "better-sqlite3";
import type { BenchDocument } from "../corpus/documents.ts";
import { progress } from "./log.ts";
import { openRuntime } from "./runtime.ts";
import { toBlob } from "../../src/store/vector-blob.ts";
import type { Embedder } from "../../src/ports/embedding.ts";

export async function fillUnmeasured(
  dataDir: string,
  embedder: Embedder | null,
  docs: readonly BenchDocument[],
): Promise<void> {
  if (docs.length === 0) return;
  progress(`fill (not measured): ${docs.length} documents without vectors${embedder ? ", then vectors in bulk" : ""}`);
  const { runtime, workspaceId, dbFile } = await openRuntime(dataDir, null);
  for (const doc of docs)
    await runtime.ingest.ingest(workspaceId, { content: doc.content, source_path: doc.sourcePath, kind: "markdown" });
  const missing = embedder ? await runtime.store.documents.chunksMissingEmbedding(embedder.id, 10_000_000) : [];
  await runtime.close();
  if (!embedder) return;
  const vectors = await embedder.embed(missing.map((m) => m.text));
  const db = new Database(dbFile);
  try {
    const insert = db.prepare("INSERT OR REPLACE INTO embeddings (embedder_id, chunk_hash, vector) VALUES (?, ?, ?)");
    db.transaction(() => missing.forEach((m, i) => insert.run(embedder.id, m.chunkHash, toBlob(vectors[i]!))))();
  } finally {
    db.close();
  }
  progress(`fill: ${missing.length} vectors written`);
}
