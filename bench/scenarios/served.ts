// The server as `npm start` runs it (compiled: run.ts builds dist/ first; a fresh process on the vault): time from
// spawn to the first hybrid recall answered over HTTP, and the process's resident memory once its indexes are loaded
// and it has served some recalls: at once (what loading left, garbage included) and after it has idled long enough for
// V8's memory reducer to run a full collection (about 15 s on this machine), which is what the process holds.
import { setTimeout as sleep } from "node:timers/promises";
import { runJson, startServe } from "../../test/cli/cli-helpers.ts";
import { residentMB } from "../lib/proc.ts";
import { round } from "../lib/stats.ts";

export interface ServedResult {
  /** Spawn to the first recall's answer. */
  toFirstRecallMs: number;
  /** VmRSS after WARM_RECALLS more recalls, and the peak (VmHWM) until then. */
  rssMB: number;
  peakRssMB: number;
  /** VmRSS after SETTLE_SECONDS without requests. */
  settledRssMB: number;
  /** SMRITI_INDEX_SNAPSHOTS: whether the indexes could come from the saved snapshot. */
  snapshots: boolean;
}

const WARM_RECALLS = 50;
const SETTLE_SECONDS = 25;
/** A first start at 1M chunks reads every row for more than a minute. */
export const START_MS = 15 * 60_000;

/** Starts `smriti serve`, recalls through it, measures it, stops it (it saves its indexes as it closes). */
export async function benchServed(
  dataDir: string,
  queries: readonly string[],
  snapshots: boolean,
): Promise<ServedResult> {
  const env = { ...process.env, SMRITI_INDEX_SNAPSHOTS: snapshots ? "1" : "0" };
  const { token } = await runJson<{ token: string }>(["token", "create", "--json", "--data", dataDir], { env });
  const t0 = performance.now();
  const server = await startServe(dataDir, env, [], START_MS);
  try {
    const recall = async (query: string) => {
      const res = await fetch(`${server.url}/v1/memory/recall`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ query, k: 10, mode: "hybrid" }),
      });
      if (!res.ok) throw new Error(`bench: recall on the served process answered ${res.status}`);
      await res.arrayBuffer();
    };
    await recall(queries[0]!);
    const toFirstRecallMs = round(performance.now() - t0, 1);
    for (let i = 1; i <= WARM_RECALLS; i++) await recall(queries[i % queries.length]!);
    const { rss, peak } = residentMB(server.child.pid!);
    await sleep(SETTLE_SECONDS * 1000);
    return { toFirstRecallMs, rssMB: rss, peakRssMB: peak, settledRssMB: residentMB(server.child.pid!).rss, snapshots };
  } finally {
    await server.stop();
  }
}
