// A separate client process that ingests generated documents over HTTP, one request per document, `inFlight` at once.
import { generateDocuments } from "../corpus/documents.ts";
import { loadVocabulary } from "../corpus/vocab.ts";
import { postJson } from "../lib/http-client.ts";
import { reply } from "./ipc.ts";
import type { IngestClientInit } from "./protocol.ts";

let init: IngestClientInit | null = null;

async function ingestAll(): Promise<void> {
  const { url, token, seed, documents, chunksPerDocument, pathPrefix, maxSeconds, inFlight } = init!;
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
  const queue = [...docs];
  const sender = async () => {
    for (let doc = queue.shift(); doc && performance.now() <= deadline; doc = queue.shift()) {
      const s = performance.now();
      const res = (await postJson(`${url}/v1/memory/ingest`, token, {
        content: doc.content,
        source_path: doc.sourcePath,
        kind: "markdown",
      })) as { chunks: number };
      requestMs.push(performance.now() - s);
      chunks += res.chunks;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  await reply({
    type: "done",
    documents: requestMs.length,
    chunks,
    seconds: (performance.now() - t0) / 1000,
    requestMs,
  });
  process.exit(0);
}

process.once("message", (m: IngestClientInit) => {
  init = m;
  ingestAll().catch((err: unknown) => {
    process.stderr.write(`ingest client: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
});
