// Ingest throughput through runtime.ingest.ingest (in-process), a few documents in flight as a bulk import keeps them
// (the ingest workers analyse some while the loop writes others), optionally time-boxed.
import type { BenchDocument } from "../corpus/documents.ts";
import { progress } from "../lib/log.ts";
import { openRuntime } from "../lib/runtime.ts";
import { round } from "../lib/stats.ts";
import { TimedEmbedder } from "../lib/timed-embedder.ts";
import type { Embedder } from "../../src/ports/embedding.ts";

/** What `smriti ingest` keeps in flight too (src/cli/ingest.ts). */
const IN_FLIGHT = 4;

export interface IngestResult {
  embedder: string;
  /** Chunks already in the store when this measurement started. */
  startChunks: number;
  documents: number;
  chunks: number;
  seconds: number;
  chunksPerSec: number;
  /** Chunks per second of process CPU time: less sensitive to other load on the machine than wall time. */
  cpuChunksPerSec: number;
  /** Documents ingested at once. */
  inFlight: number;
  /** Time inside embedder.embed on the loop (only with an embedder; what the ingest workers embed is not counted). */
  embedSeconds: number;
  /** Throughput over the first and the last 10% of documents: shows whether ingest slows as the store grows. */
  firstTenthChunksPerSec: number;
  lastTenthChunksPerSec: number;
  /** False when the time budget ran out before every document was ingested. */
  completed: boolean;
}

export async function benchIngest(
  dataDir: string,
  embedder: Embedder | null,
  docs: readonly BenchDocument[],
  opts: {
    label: string;
    startChunks?: number;
    budgetSeconds?: number;
    inFlight?: number;
    env?: Record<string, string>;
  },
): Promise<IngestResult> {
  const timed = embedder ? new TimedEmbedder(embedder) : null;
  const { runtime, workspaceId } = await openRuntime(dataDir, timed, opts.env);
  const tenth = Math.max(1, Math.floor(docs.length / 10));
  const deadline = performance.now() + (opts.budgetSeconds ?? Infinity) * 1000;
  const marks: { at: number; chunks: number }[] = [];
  let chunks = 0;
  let done = 0;
  let next = 0;
  let outOfTime = false;
  const inFlight = opts.inFlight ?? IN_FLIGHT;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const lane = async () => {
    while (next < docs.length && !outOfTime) {
      if (performance.now() > deadline) {
        outOfTime = true;
        progress(`ingest ${opts.label}: time budget of ${opts.budgetSeconds} s used up after ${chunks} chunks`);
        break;
      }
      const doc = docs[next++]!;
      const res = await runtime.ingest.ingest(workspaceId, {
        content: doc.content,
        source_path: doc.sourcePath,
        kind: "markdown",
      });
      chunks += res.chunks;
      if (++done % tenth === 0) {
        marks.push({ at: performance.now(), chunks });
        progress(
          `ingest ${opts.label}: ${chunks} chunks, ${round(chunks / ((performance.now() - t0) / 1000), 0)} chunks/s`,
        );
      }
    }
  };
  marks.push({ at: t0, chunks: 0 });
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  marks.push({ at: performance.now(), chunks });
  await runtime.close();
  const rate = (a: { at: number; chunks: number }, b: { at: number; chunks: number }) =>
    round((b.chunks - a.chunks) / ((b.at - a.at) / 1000), 0);
  return {
    embedder: embedder?.id ?? "none",
    startChunks: opts.startChunks ?? 0,
    documents: done,
    chunks,
    seconds: round(seconds, 2),
    chunksPerSec: round(chunks / seconds, 0),
    cpuChunksPerSec: round(chunks / ((cpu.user + cpu.system) / 1e6), 0),
    inFlight,
    embedSeconds: round((timed?.ms ?? 0) / 1000, 2),
    firstTenthChunksPerSec: rate(marks[0]!, marks[1] ?? marks[0]!),
    lastTenthChunksPerSec: rate(marks[marks.length - 2] ?? marks[0]!, marks[marks.length - 1]!),
    completed: done === docs.length,
  };
}
