// One-chunk documents (a message, a fact) written as agents write them: 8 writers at once, in-process through
// runtime.ingest.ingest and over HTTP from a client process, each acknowledged once durable with its vector and audit
// event. Every document is distinct (the bench corpus, one section of 60-100 words); several rounds, documents/s each.
import type { Embedder } from "../../src/ports/embedding.ts";
import { generateDocuments } from "../corpus/documents.ts";
import { progress } from "../lib/log.ts";
import { openRuntime } from "../lib/runtime.ts";
import { startServer } from "../lib/server.ts";
import { median, round, summarize, type LatencySummary } from "../lib/stats.ts";
import { forkIngester } from "./http-ingest.ts";
import { isType, nextMessage } from "../workers/ipc.ts";
import type { IngestClientDone } from "../workers/protocol.ts";

/** Writers at once: the 8 clients. */
export const SMALL_WRITERS = 8;

export interface SmallIngestRound {
  documents: number;
  seconds: number;
  docsPerSec: number;
}

export interface SmallIngest {
  writers: number;
  rounds: SmallIngestRound[];
  /** Documents/s over the rounds: the spread says how steady it is. */
  docsPerSec: { min: number; median: number; max: number };
  /** Per document (in-process: one ingest call; HTTP: one request). */
  latency: LatencySummary;
  /** Documents per second of the serving process's CPU time over all rounds (HTTP: the server's, not the client's). */
  cpuDocsPerSec: number;
}

export interface SmallIngestOptions {
  seed: number;
  rounds: number;
  documentsPerRound: number;
  /** A round stops sending after this long. */
  maxSeconds: number;
  /** More configuration: SMRITI_DATABASE_URL runs it on PostgreSQL. */
  env?: Record<string, string>;
}

export async function benchSmallIngest(
  dir: string,
  vocab: readonly string[],
  embedder: Embedder,
  opts: SmallIngestOptions,
): Promise<{ inProcess: SmallIngest; http: SmallIngest }> {
  const rt = await openRuntime(dir, embedder, opts.env);
  try {
    const docs = generateDocuments(vocab, {
      seed: opts.seed,
      chunks: opts.rounds * opts.documentsPerRound,
      minSections: 1,
      maxSections: 1,
      pathPrefix: "small",
    });
    const rounds: SmallIngestRound[] = [];
    const latencies: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < opts.rounds; r++) {
      const batch = docs.slice(r * opts.documentsPerRound, (r + 1) * opts.documentsPerRound);
      const deadline = performance.now() + opts.maxSeconds * 1000;
      let next = 0;
      const t0 = performance.now();
      const writer = async () => {
        for (let doc = batch[next++]; doc && performance.now() < deadline; doc = batch[next++]) {
          const s = performance.now();
          await rt.runtime.ingest.ingest(rt.workspaceId, {
            content: doc.content,
            source_path: doc.sourcePath,
            kind: "markdown",
          });
          latencies.push(performance.now() - s);
        }
      };
      const before = latencies.length;
      await Promise.all(Array.from({ length: SMALL_WRITERS }, writer));
      rounds.push(roundOf(latencies.length - before, (performance.now() - t0) / 1000));
      progress(`small ingest in-process, round ${r + 1}: ${rounds.at(-1)!.docsPerSec} documents/s`);
    }
    const inProcess = summaryOf(rounds, latencies, process.cpuUsage(cpu0));

    const srv = await startServer(rt.runtime);
    try {
      const httpRounds: SmallIngestRound[] = [];
      const requestMs: number[] = [];
      const serverCpu0 = process.cpuUsage(); // the server runs in this process; the client is its own
      for (let r = 0; r < opts.rounds; r++) {
        const client = forkIngester(srv, {
          documents: opts.documentsPerRound,
          chunksPerDocument: 1,
          seed: opts.seed + 1 + r,
          maxSeconds: opts.maxSeconds,
          pathPrefix: `small-http-${r}`,
          inFlight: SMALL_WRITERS,
        });
        try {
          await nextMessage(client, isType("ready"));
          const done = nextMessage<IngestClientDone>(client, isType("done"));
          client.send({ type: "start" });
          const d = await done;
          httpRounds.push(roundOf(d.documents, d.seconds));
          requestMs.push(...d.requestMs);
        } finally {
          client.kill();
        }
        progress(`small ingest over HTTP, round ${r + 1}: ${httpRounds.at(-1)!.docsPerSec} documents/s`);
      }
      return { inProcess, http: summaryOf(httpRounds, requestMs, process.cpuUsage(serverCpu0)) };
    } finally {
      await srv.server.close();
    }
  } finally {
    await rt.runtime.close();
  }
}

function roundOf(documents: number, seconds: number): SmallIngestRound {
  return { documents, seconds: round(seconds, 2), docsPerSec: round(documents / seconds, 0) };
}

function summaryOf(rounds: SmallIngestRound[], latencies: number[], cpu: NodeJS.CpuUsage): SmallIngest {
  const rates = rounds.map((r) => r.docsPerSec);
  return {
    writers: SMALL_WRITERS,
    rounds,
    docsPerSec: { min: Math.min(...rates), median: median(rates), max: Math.max(...rates) },
    latency: summarize(latencies),
    cpuDocsPerSec: round(latencies.length / ((cpu.user + cpu.system) / 1e6), 0),
  };
}
