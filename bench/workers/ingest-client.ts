// A separate client process that ingests generated documents over HTTP, one request per document, sequentially.
import { generateDocuments } from "../corpus/documents.ts";
import { loadVocabulary } from "../corpus/vocab.ts";
import { postJson } from "../lib/http-client.ts";
import { reply } from "./ipc.ts";
import type { IngestClientInit } from "./protocol.ts";

let init: IngestClientInit | null = null;

async function ingestAll(): Promise<void> {
  const { url, token, seed, documents, chunksPerDocument, pathPrefix, maxSeconds } = init!;
  const docs = generateDocuments(loadVocabulary(), {
    seed,
    chunks: documents * chunksPerDocument,
    minSections: chunksPerDocument,
    maxSections: chunksPerDocument,
    pathPrefix,
  });
  await reply({ type: "ready" });
  await new Promise<void>((resolve) => process.once("message", () => resolve()));
  let chunks = 0;
  const requestMs: number[] = [];
  const t0 = performance.now();
  const deadline = t0 + maxSeconds * 1000;
  for (const doc of docs) {
    if (performance.now() > deadline) break;
    const s = performance.now();
    const res = (await postJson(`${url}/v1/memory/ingest`, token, { content: doc.content, source_path: doc.sourcePath, kind: "markdown" })) as { chunks: number };
    requestMs.push(performance.now() - s);
    chunks += res.chunks;
  }
  await reply({ type: "done", documents: requestMs.length, chunks, seconds: (performance.now() - t0) / 1000, requestMs });
  process.exit(0);
}

process.once("message", (m: IngestClientInit) => {
  init = m;
  ingestAll().catch((err: unknown) => {
    process.stderr.write(`ingest client: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
});
