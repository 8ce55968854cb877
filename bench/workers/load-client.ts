// A load generator in its own process: autocannon against the recall route at each connection count, for a bounded
// time each, rotating through distinct queries; reports throughput and latency per step (loopback only).
import autocannon from "autocannon";
import { cpuMsOf } from "../lib/proc.ts";
import { reply } from "./ipc.ts";
import type { LoadClientInit, LoadStep } from "./protocol.ts";

process.once("message", async (init: LoadClientInit) => {
  const serverCpuMs = () => init.serverPids.reduce((ms, pid) => ms + cpuMsOf(pid), 0);
  const steps: LoadStep[] = [];
  for (const connections of init.connections) {
    let next = 0;
    const [server0, client0, t0] = [serverCpuMs(), process.cpuUsage(), performance.now()];
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
    const wallMs = performance.now() - t0;
    const serverMs = serverCpuMs() - server0;
    const { user, system } = process.cpuUsage(client0);
    steps.push({
      connections,
      seconds: init.seconds,
      requestsPerSec: result.requests.average,
      requests: result.requests.total,
      mean: result.latency.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      queriesRepeated: next > init.queries.length,
      serverCores: Math.round((serverMs / wallMs) * 100) / 100,
      clientCores: Math.round(((user + system) / 1000 / wallMs) * 100) / 100,
      serverCpuMsPerRequest: Math.round((serverMs / Math.max(1, result.requests.total)) * 100) / 100,
    });
  }
  await reply({ type: "load", steps });
  process.exit(0);
});
