// Recall over HTTP under a real load generator in another process (autocannon at 1, 16 and 64 connections), so the
// server has the event loop to itself, as in production; the in-process figure beside it shows the HTTP overhead.
import type { BenchServer } from "../lib/server.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { LoadClientInit, LoadStep } from "../workers/protocol.ts";

export interface HttpLoadResult {
  steps: LoadStep[];
  /** Mean latency over HTTP at one connection over the in-process hybrid mean: what HTTP adds, as a factor. */
  overheadRatio: number | null;
}

export const LOAD_CONNECTIONS = [1, 16, 64];

/** How long each connection count is loaded: `rounds` rounds of `seconds`, each reported. */
export interface LoadTiming {
  seconds: number;
  rounds: number;
}

export async function benchHttpLoad(
  srv: BenchServer,
  queries: readonly string[],
  timing: LoadTiming,
  inProcessMean: number | null,
): Promise<HttpLoadResult> {
  const client = forkClient("./load-client.ts", {
    url: srv.url,
    token: srv.token,
    queries: [...queries],
    mode: "hybrid",
    connections: LOAD_CONNECTIONS,
    ...timing,
    serverPids: [process.pid],
  } satisfies LoadClientInit);
  const { steps } = await nextMessage<{ steps: LoadStep[] }>(client, isType("load"));
  const one = steps.find((s) => s.connections === 1);
  return { steps, overheadRatio: one && inProcessMean ? Math.round((one.mean / inProcessMean) * 100) / 100 : null };
}
