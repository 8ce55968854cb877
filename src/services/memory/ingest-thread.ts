// Runs on an ingest worker thread: chunks, tokenizes and (with a portable embedder) embeds one document per message.
import { parentPort, workerData } from "node:worker_threads";
import type { Embedder, PortableEmbedder } from "../../ports/embedding.ts";
import { analyseDocument } from "./analyse.ts";
import type { Analysis, AnalyseReply, AnalyseRequest } from "./ingest-pool.ts";

const spec = (workerData as { embedder: PortableEmbedder | null }).embedder;
const embedder: Embedder | null = spec ? (await import(spec.module)).embedderFromInit(spec.init) : null;
const port = parentPort!;

port.on("message", (req: AnalyseRequest) => {
  void analyse(req).then(
    (reply) => port.postMessage(reply, transferable(reply.vectors ?? [])),
    (err: Error) => port.postMessage({ id: req.id, error: err.message } satisfies AnalyseReply),
  );
});

async function analyse({ id, content, kind }: AnalyseRequest): Promise<{ id: number } & Analysis> {
  const chunks = [...analyseDocument(content, kind)];
  const vectors = embedder ? await embedder.embed(chunks.map((c) => c.text)) : null;
  return { id, chunks, vectors };
}

/** Each vector's own buffer moves to the loop instead of being copied (views sharing one buffer list it once). */
function transferable(vectors: readonly Float32Array[]): ArrayBuffer[] {
  return [...new Set(vectors.map((v) => v.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer))];
}
