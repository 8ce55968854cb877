// Recall over real HTTP (server and fetch client in this process): sequential latency, then concurrency-8 throughput.
import { postJson } from "../lib/http-client.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { timedLoop, type LoopLimits } from "../lib/timed-loop.ts";

export interface HttpRecallResult {
  sequential: LatencySummary & { cpuMsPerOp: number; truncated: boolean };
  concurrent: LatencySummary & { concurrency: number; requestsPerSec: number; seconds: number; truncated: boolean };
}

export async function benchHttpRecall(
  srv: BenchServer,
  queries: { warmup: readonly string[]; sequential: readonly string[]; concurrent: readonly string[] },
  limits: LoopLimits,
  concurrentLimits: LoopLimits = limits,
  concurrency = 8,
  mode: "hybrid" | "lexical" | "vector" = "hybrid",
): Promise<HttpRecallResult> {
  const url = `${srv.url}/v1/memory/recall`;
  const recall = (query: string) => postJson(url, srv.token, { query, k: 10, mode });
  for (const q of queries.warmup) await recall(q);
  const seq = await timedLoop(queries.sequential, recall, limits);

  const samples: number[] = [];
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + (concurrentLimits.maxSeconds ?? Infinity) * 1000;
  const more = () =>
    next < queries.concurrent.length &&
    (samples.length < (concurrentLimits.minCount ?? 0) || performance.now() < deadline);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (more()) {
        const query = queries.concurrent[next++]!;
        const s = performance.now();
        await recall(query);
        samples.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return {
    sequential: { ...summarize(seq.samples), cpuMsPerOp: seq.cpuMsPerOp, truncated: seq.truncated },
    concurrent: {
      ...summarize(samples),
      concurrency,
      requestsPerSec: round(samples.length / seconds, 1),
      seconds: round(seconds, 2),
      truncated: next < queries.concurrent.length,
    },
  };
}
