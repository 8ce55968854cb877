// Runs on an ingest worker thread: chunks, tokenizes and (with a portable embedder) embeds one document per message, or
// embeds the re-embed job's texts.
import type { Embedder, PortableEmbedder } from "../../ports/embedding.ts";
import { serveThread } from "../../threads/pool.ts";
import { rebuildEmbedder } from "../thread-embedder.ts";
import { analyseDocument } from "./analyse.ts";
import type { Analysis, AnalyseRequest } from "./ingest-pool.ts";

let embedder: Promise<Embedder | null> | null = null;

serveThread<AnalyseRequest, Analysis>(async (request, data) => {
  embedder ??= rebuildEmbedder(data as PortableEmbedder | null);
  const e = await embedder;
  if ("texts" in request) {
    const vectors = await e!.embed(request.texts);
    return { body: { chunks: [], vectors }, transfer: transferable(vectors) };
  }
  const chunks = [...analyseDocument(request.content, request.kind)];
  const vectors = e ? await e.embed(chunks.map((c) => c.text)) : null;
  return { body: { chunks, vectors }, transfer: transferable(vectors ?? []) };
});

/** Each vector's own buffer moves to the loop instead of being copied (views sharing one buffer list it once). */
function transferable(vectors: readonly Float32Array[]): ArrayBuffer[] {
  return [...new Set(vectors.map((v) => v.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer))];
}
