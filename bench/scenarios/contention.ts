// Recall latency from a separate client process, idle and while another client ingests over HTTP (10k chunks in 50-chunk
// documents one at a time, or one-chunk documents from several writers: bench:small-writes --recall).
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import { forkIngester, ingestFigures, type HttpIngest } from "./http-ingest.ts";
import type { IngestClientDone, RecallClientSamples } from "../workers/protocol.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";

export interface ContentionResult {
  idle: LatencySummary;
  duringIngest: LatencySummary;
  queriesRepeated: boolean;
  ingest: HttpIngest;
  /** With `cycles` > 1: each busy window's p99 over the p99 of the idle window just before it. */
  cycleRatios?: number[];
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
    /**
     * Idle then busy windows, this many times, the documents split among them (1 unless given): on a machine whose load
     * drifts from minute to minute, each busy window is read against the idle one just before it.
     */
    cycles?: number;
  },
): Promise<ContentionResult> {
  const inFlight = opts.inFlight ?? 1;
  const cycles = opts.cycles ?? 1;
  const recaller = forkClient("./recall-client.ts", { url: srv.url, token: srv.token, queries, mode: "hybrid" });
  try {
    await nextMessage(recaller, isType("ready"));
    const recalls = async (count: number) => {
      recaller.send({ type: "run", count });
      return (await nextMessage<RecallClientSamples>(recaller, isType("samples"))).latencies;
    };
    await recalls(WARMUP); // the client's connection and JIT keep warming up long after its first requests
    const idle: number[] = [];
    const during: number[] = [];
    const ratios: number[] = [];
    const done: IngestClientDone[] = [];
    let wrapped = false;
    for (let cycle = 0; cycle < cycles; cycle++) {
      const documents = Math.round(opts.documents / cycles);
      const ingester = forkIngester(srv, {
        ...opts,
        documents,
        seed: opts.seed + cycle,
        pathPrefix: `contention${cycle}`,
        inFlight,
      });
      try {
        await nextMessage(ingester, isType("ready"));
        // Twice the idle count, before the ingest: after it the server still checkpoints and collects what it left.
        const quiet = await recalls(Math.round((2 * opts.idleQueries) / cycles));
        const samples = nextMessage<RecallClientSamples>(recaller, isType("samples"));
        const finished = nextMessage<IngestClientDone>(ingester, isType("done"));
        recaller.send({ type: "loop" });
        ingester.send({ type: "start" });
        done.push(await finished);
        recaller.send({ type: "stop" });
        const busy = await samples;
        wrapped ||= busy.wrapped;
        idle.push(...quiet);
        during.push(...busy.latencies);
        ratios.push(round(summarize(busy.latencies).p99 / summarize(quiet).p99, 2));
      } finally {
        ingester.kill();
      }
    }
    const ingest = ingestFigures(sumIngests(done), opts.documents, inFlight);
    const result = { idle: summarize(idle), duringIngest: summarize(during), queriesRepeated: wrapped, ingest };
    return cycles > 1 ? { ...result, cycleRatios: ratios } : result;
  } finally {
    recaller.kill();
  }
}

/** The ingest clients' runs of every cycle as one. */
function sumIngests(runs: readonly IngestClientDone[]): IngestClientDone {
  return runs.reduce((a, b) => ({
    ...a,
    documents: a.documents + b.documents,
    chunks: a.chunks + b.chunks,
    seconds: a.seconds + b.seconds,
    requestMs: [...a.requestMs, ...b.requestMs],
  }));
}
