// A load generator in its own process: autocannon against the recall route at each connection count, in rounds of a
// bounded time each, rotating through distinct queries; reports throughput and latency per round and per step
// (loopback only).
import autocannon from "autocannon";
import { connectionsOf, cpuMsOf, machineBusyMs } from "../lib/proc.ts";
import { median, round } from "../lib/stats.ts";
import { reply } from "./ipc.ts";
import type { LoadClientInit, LoadRound, LoadStep } from "./protocol.ts";

/** Fewer distinct queries than the retriever's query-vector cache holds (1,000) would let it answer repeats. */
export const MIN_ROTATING_QUERIES = 1_000;

process.once("message", async (init: LoadClientInit) => {
  if (init.queries.length < MIN_ROTATING_QUERIES)
    throw new Error(`bench: a load rotates over at least ${MIN_ROTATING_QUERIES} queries, got ${init.queries.length}`);
  const cpuMs = () => init.serverPids.map(cpuMsOf);
  const port = Number(new URL(init.url).port);
  const steps: LoadStep[] = [];
  let next = 0;
  for (const connections of init.connections) {
    const rounds: LoadRound[] = [];
    let [requests, errors, non2xx, latencySum] = [0, 0, 0, 0];
    const [server0, client0, t0] = [cpuMs(), process.cpuUsage(), performance.now()];
    for (let r = 0; r < init.rounds; r++) {
      const [cpu0, r0, busy0, own0] = [cpuMs(), performance.now(), machineBusyMs(), process.cpuUsage()];
      let held: number[] = [];
      // Mid-round: on a busy machine a group's primary takes a while to hand every new connection to a worker.
      const census = setTimeout(() => (held = connectionsOf(init.serverPids, port)), init.seconds * 500);
      const result = await autocannon({
        url: `${init.url}/v1/memory/recall`,
        method: "POST",
        connections,
        duration: init.seconds,
        headers: { authorization: `Bearer ${init.token}`, "content-type": "application/json" },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ query: init.queries[next++ % init.queries.length], k: 10, mode: init.mode }),
            }),
          },
        ],
      });
      clearTimeout(census);
      const wall = performance.now() - r0;
      const serverRound = cpuMs().map((ms, i) => ms - cpu0[i]!);
      const own = process.cpuUsage(own0);
      const others = machineBusyMs() - busy0 - serverRound.reduce((a, b) => a + b, 0) - (own.user + own.system) / 1000;
      rounds.push({
        requestsPerSec: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        processCores: serverRound.map((ms) => round(ms / wall, 2)),
        otherCores: round(Math.max(0, others) / wall, 2),
        processConnections: held,
      });
      requests += result.requests.total;
      errors += result.errors + result.timeouts;
      non2xx += result.non2xx;
      latencySum += result.latency.average * result.requests.total;
    }
    const wallMs = performance.now() - t0;
    const serverMs = cpuMs().reduce((sum, ms, i) => sum + ms - server0[i]!, 0);
    const { user, system } = process.cpuUsage(client0);
    const perSecond = rounds.map((r) => r.requestsPerSec);
    steps.push({
      connections,
      seconds: init.seconds,
      requestsPerSec: round(requests / (init.seconds * init.rounds || 1), 1),
      rounds,
      spread: round(Math.max(...perSecond) / Math.max(1, Math.min(...perSecond)) - 1, 3),
      distinctQueries: init.queries.length,
      requests,
      mean: round(latencySum / Math.max(1, requests), 2),
      p50: median(rounds.map((r) => r.p50)),
      p99: Math.max(...rounds.map((r) => r.p99)),
      errors,
      non2xx,
      queriesRepeated: next > init.queries.length,
      serverCores: round(serverMs / wallMs, 2),
      clientCores: round((user + system) / 1000 / wallMs, 2),
      serverCpuMsPerRequest: round(serverMs / Math.max(1, requests), 2),
    });
  }
  await reply({ type: "load", steps });
  process.exit(0);
});
