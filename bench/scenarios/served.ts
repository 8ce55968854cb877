// The server as `npm start` runs it (compiled, a fresh process on the vault): time from spawn to the first hybrid recall
// answered over HTTP, and the process's resident memory once its indexes are loaded and it has served some recalls:
// at once (what loading left, garbage included) and after it has idled long enough for V8's memory reducer to run a
// full collection (about 15 s on this machine), which is what the process holds.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT, runSmriti, SMRITI_BIN } from "../lib/compiled.ts";
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

/** VmRSS and VmHWM of a process, in MB (Linux). */
function residentMB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: round(kb("VmRSS") / 1024, 1), peak: round(kb("VmHWM") / 1024, 1) };
}

/** Starts `smriti serve`, recalls through it, measures it, stops it (it saves its indexes as it closes). */
export async function benchServed(dataDir: string, queries: readonly string[], snapshots: boolean): Promise<ServedResult> {
  const { token } = JSON.parse(runSmriti(["token", "create", "--json"], dataDir)) as { token: string };
  const t0 = performance.now();
  const child = spawn(process.execPath, [SMRITI_BIN, "serve", "--port", "0", "--data", dataDir], {
    cwd: ROOT,
    env: { ...process.env, SMRITI_INDEX_SNAPSHOTS: snapshots ? "1" : "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const url = await listening(child.stderr!);
    const recall = async (query: string) => {
      const res = await fetch(`${url}/v1/memory/recall`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ query, k: 10, mode: "hybrid" }) });
      if (!res.ok) throw new Error(`bench: recall on the served process answered ${res.status}`);
      await res.arrayBuffer();
    };
    await recall(queries[0]!);
    const toFirstRecallMs = round(performance.now() - t0, 1);
    for (let i = 1; i <= WARM_RECALLS; i++) await recall(queries[i % queries.length]!);
    const { rss, peak } = residentMB(child.pid!);
    await sleep(SETTLE_SECONDS * 1000);
    return { toFirstRecallMs, rssMB: rss, peakRssMB: peak, settledRssMB: residentMB(child.pid!).rss, snapshots };
  } finally {
    const gone = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await gone;
  }
}

/** The URL the server prints once it listens. */
function listening(stderr: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`bench: smriti serve did not listen within 120 s:\n${seen}`)), 120_000);
    stderr.on("data", (d: Buffer) => {
      seen += d.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    stderr.on("end", () => reject(new Error(`bench: smriti serve exited before listening:\n${seen}`)));
  });
}
