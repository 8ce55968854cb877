// Recall latency from a separate client process, idle and while another client ingests over HTTP (10k chunks in 50-chunk
// documents one at a time, or one-chunk documents from several writers: bench:small-writes --recall).
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import { forkIngester, ingestFigures, type HttpIngest } from "./http-ingest.ts";
import type { IngestClientDone, RecallClientSamples } from "../workers/protocol.ts";
import type { BenchServer } from "../lib/server.ts";
import { summarize, type LatencySummary } from "../lib/stats.ts";

export interface ContentionResult {
  idle: LatencySummary;
  duringIngest: LatencySummary;
  queriesRepeated: boolean;
  ingest: HttpIngest;
}

/** Recalls before the measured ones (the sessions scenario found the client still warming up after 50). */
const WARMUP = 500;

export async function benchContention(
  srv: BenchServer,
  queries: string[],
  opts: {
    idleQueries: number;
    documents: number;
    chunksPerDocument: number;
    seed: number;
    maxSeconds: number;
    /** Documents the ingest client keeps in flight (1 unless given). */
    inFlight?: number;
  },
): Promise<ContentionResult> {
  const inFlight = opts.inFlight ?? 1;
  const recaller = forkClient("./recall-client.ts", { url: srv.url, token: srv.token, queries, mode: "hybrid" });
  const ingester = forkIngester(srv, { ...opts, pathPrefix: "contention", inFlight });
  try {
    await Promise.all([nextMessage(recaller, isType("ready")), nextMessage(ingester, isType("ready"))]);
    const recalls = async (count: number) => {
      recaller.send({ type: "run", count });
      return (await nextMessage<RecallClientSamples>(recaller, isType("samples"))).latencies;
    };
    await recalls(WARMUP); // the client's connection and JIT keep warming up long after its first requests
    // Twice the idle count, all before the ingest: after it the server still checkpoints and collects what it left.
    const idle = await recalls(2 * opts.idleQueries);

    const during = nextMessage<RecallClientSamples>(recaller, isType("samples"));
    const done = nextMessage<IngestClientDone>(ingester, isType("done"));
    recaller.send({ type: "loop" });
    ingester.send({ type: "start" });
    const ingest = await done;
    recaller.send({ type: "stop" });
    const busy = await during;
    return {
      idle: summarize(idle),
      duringIngest: summarize(busy.latencies),
      queriesRepeated: busy.wrapped,
      ingest: ingestFigures(ingest, opts.documents, inFlight),
    };
  } finally {
    recaller.kill();
    ingester.kill();
  }
}
