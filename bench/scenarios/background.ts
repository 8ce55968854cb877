// Background sessions with the extractive agent: start many at once over HTTP and let the supervisor run them. How many
// ran at the same moment, how many completed per minute, and how late their events reached clients following them.
import { parseSse } from "../../src/client/sse.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";

export interface BackgroundResult {
  /** extractive, or a paced model double (ms per step). */
  provider: string;
  sessions: number;
  /** The most runs the supervisor had going at one moment (sampled every 2 ms). */
  peakRunning: number;
  seconds: number;
  completedPerMinute: number;
  failed: number;
  eventsPerSession: number;
  /** From an event's append to its arrival at a client following the session over SSE (events logged after it connected), ms. */
  eventLatency: LatencySummary;
  followed: number;
}

const FOLLOWED = 25;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

export async function benchBackground(srv: BenchServer, rt: FullRuntime, workspaceId: string, tasks: readonly string[], provider: string): Promise<BackgroundResult> {
  const headers = { authorization: `Bearer ${srv.token}`, "content-type": "application/json" };
  const start = async (task: string) => {
    const body = JSON.stringify({ task, provider, approval_mode: "never", permission_mode: "read-only" });
    const res = await fetch(`${srv.url}/sessions`, { method: "POST", headers, body });
    if (!res.ok) throw new Error(`start failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { session: { session_id: string } }).session.session_id;
  };
  /** A client following the session from its start: when each event arrives, and when it connected. */
  const follow = async (id: string) => {
    const res = await fetch(`${srv.url}/sessions/${id}/events/stream`, { headers });
    // The stream is open once its headers are in: what was logged before was read back, not delivered live.
    const connected = Date.now();
    const seen: { seq: number; at: number }[] = [];
    for await (const e of parseSse(res.body!)) {
      seen.push({ seq: Number(e.id!.split("/")[1]), at: Date.now() });
      if (e.event === "completed" || e.event === "error") break;
    }
    return { id, seen, connected };
  };
  const done = async (ids: readonly string[]) => {
    for (;;) {
      const rows = await Promise.all(ids.map((id) => rt.store.getSession(workspaceId, id)));
      if (rows.every((r) => r && TERMINAL.has(r.status))) return rows;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await done(await Promise.all(tasks.slice(0, 5).map(start))); // warm-up

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rt.supervisor.liveCount)), 2);
  const t0 = performance.now();
  const followers: Promise<Awaited<ReturnType<typeof follow>>>[] = [];
  const ids = await Promise.all(
    tasks.slice(5).map(async (task, i) => {
      const id = await start(task);
      if (i % Math.ceil((tasks.length - 5) / FOLLOWED) === 0) followers.push(follow(id));
      return id;
    }),
  );
  const rows = await done(ids);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const latencies: number[] = [];
  for (const { id, seen, connected } of await Promise.all(followers)) {
    const logged = new Map((await rt.store.readStream(workspaceId, id, 0, 10_000)).map((e) => [e.seq, e.at]));
    // Events logged before the client connected were read back from the log, not delivered live: not a latency.
    for (const s of seen) if ((logged.get(s.seq) ?? 0) >= connected) latencies.push(Math.max(0, s.at - logged.get(s.seq)!));
  }
  let events = 0;
  for (const id of ids) events += (await rt.store.readStream(workspaceId, id, 0, 10_000)).length;
  return {
    provider,
    sessions: ids.length,
    peakRunning: peak,
    seconds: round(seconds, 2),
    completedPerMinute: Math.round((rows.filter((r) => r!.status === "completed").length / seconds) * 60),
    failed: rows.filter((r) => r!.status !== "completed").length,
    eventsPerSession: round(events / ids.length, 1),
    eventLatency: summarize(latencies),
    followed: followers.length,
  };
}
