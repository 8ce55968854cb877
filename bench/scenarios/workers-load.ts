// `smriti serve --workers N` as `npm start` runs it (compiled, a fresh group on the vault): autocannon from another
// process at 16 and 64 connections against one worker and against more, with the CPU and resident memory of the whole
// group (the primary's and every worker's, from /proc).
import { setTimeout as sleep } from "node:timers/promises";
import { runJson, startServe } from "../../test/cli/cli-helpers.ts";
import { childPids, residentMB } from "../lib/proc.ts";
import { START_MS } from "./served.ts";
import { round } from "../lib/stats.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { LoadClientInit, LoadStep } from "../workers/protocol.ts";
import type { LoadTiming } from "./http-load.ts";

export interface WorkersLoadResult {
  workers: number;
  steps: LoadStep[];
  /** VmRSS summed over the group after the load. */
  rssMB: number;
}

const CONNECTIONS = [16, 64];
const WARMUP_SECONDS = 2;

export async function benchWorkersLoad(
  dataDir: string,
  queries: readonly string[],
  timing: LoadTiming,
  groups: readonly number[],
): Promise<WorkersLoadResult[]> {
  const env = { ...process.env, SMRITI_RATE_LIMIT: "0" };
  const { token } = await runJson<{ token: string }>(["token", "create", "--json", "--data", dataDir], { env });
  const out: WorkersLoadResult[] = [];
  for (const workers of groups) {
    const server = await startServe(dataDir, env, ["--workers", String(workers)], START_MS);
    try {
      const pids = [server.child.pid!, ...childPids(server.child.pid!)];
      if (pids.length !== (workers > 1 ? workers + 1 : 1))
        throw new Error(`bench: expected ${workers} workers, found processes ${pids.join(", ")}`);
      await sleep(1_000); // every worker listening and settled
      const load = async (connections: number[], t: LoadTiming) => {
        const init: LoadClientInit = {
          url: server.url,
          token,
          queries: [...queries],
          mode: "hybrid",
          connections,
          ...t,
          serverPids: pids,
        };
        return (await nextMessage<{ steps: LoadStep[] }>(forkClient("./load-client.ts", init), isType("load"))).steps;
      };
      await load([16], { seconds: WARMUP_SECONDS, rounds: 1 }); // fresh workers compile their hot paths first
      const steps = await load(CONNECTIONS, timing);
      out.push({
        workers,
        steps,
        rssMB: round(
          pids.reduce((mb, pid) => mb + residentMB(pid).rss, 0),
          1,
        ),
      });
    } finally {
      await server.stop();
    }
  }
  return out;
}
