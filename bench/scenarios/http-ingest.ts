// Bulk ingest over HTTP as `smriti ingest` sends it (4 documents in flight) from a separate client process, with
// nothing else running: what a bulk import gets from the service (contention.ts measures one at a time beside recalls).
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { IngestClientDone } from "../workers/protocol.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";

export interface HttpIngest {
  /** Requests in flight at once. */
  inFlight?: number;
  documents: number;
  plannedDocuments: number;
  chunks: number;
  seconds: number;
  chunksPerSec: number;
  request: LatencySummary;
}

export interface HttpIngestOptions {
  documents: number;
  chunksPerDocument: number;
  seed: number;
  maxSeconds: number;
  pathPrefix: string;
  inFlight: number;
}

/** Forks the ingest client (ready when it has generated its documents); `start` makes it send them. */
export function forkIngester(srv: BenchServer, opts: HttpIngestOptions) {
  const { documents, chunksPerDocument, seed, maxSeconds, pathPrefix, inFlight } = opts;
  return forkClient("./ingest-client.ts", {
    url: srv.url,
    token: srv.token,
    seed,
    documents,
    chunksPerDocument,
    pathPrefix,
    maxSeconds,
    inFlight,
  });
}

export function ingestFigures(done: IngestClientDone, plannedDocuments: number, inFlight: number): HttpIngest {
  return {
    inFlight,
    documents: done.documents,
    plannedDocuments,
    chunks: done.chunks,
    seconds: round(done.seconds, 2),
    chunksPerSec: round(done.chunks / done.seconds, 0),
    request: summarize(done.requestMs),
  };
}

export async function benchHttpIngest(srv: BenchServer, opts: HttpIngestOptions): Promise<HttpIngest> {
  const ingester = forkIngester(srv, opts);
  try {
    await nextMessage(ingester, isType("ready"));
    const done = nextMessage<IngestClientDone>(ingester, isType("done"));
    ingester.send({ type: "start" });
    return ingestFigures(await done, opts.documents, opts.inFlight);
  } finally {
    ingester.kill();
  }
}
