// Background sessions: a client process starts many at once over HTTP and follows some; the supervisor runs them. How
// many ran at the same moment, how many completed per minute, and how late their events reached the client.
import type { FullRuntime } from "../../src/main.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type {
  SessionClientCommand,
  SessionClientInit,
  SessionClientReport,
  SessionClientStarted,
} from "../workers/protocol.ts";

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
  /** An event's delivery to a client process following the session over SSE: from its append (or, when it was logged before the stream opened, from the opening) to its arrival, ms. */
  eventLatency: LatencySummary;
  followed: number;
}

const FOLLOWED = 25;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

export async function benchBackground(
  srv: BenchServer,
  rt: FullRuntime,
  workspaceId: string,
  tasks: readonly string[],
  provider: string,
): Promise<BackgroundResult> {
  const client = forkClient("./session-client.ts", { url: srv.url, token: srv.token } satisfies SessionClientInit);
  await nextMessage(client, isType("ready"));
  const startAll = async (batch: readonly string[], followEvery: number) => {
    // Both listeners first: the two answers may come in one read of the channel.
    const started = nextMessage<SessionClientStarted>(client, isType("started"));
    const arrivals = nextMessage<SessionClientReport>(client, isType("arrivals"));
    client.send({ type: "start", tasks: [...batch], provider, followEvery } satisfies SessionClientCommand);
    return { sessionIds: (await started).sessionIds, report: await arrivals };
  };
  const done = async (ids: readonly string[]) => {
    for (;;) {
      const rows = await Promise.all(ids.map((id) => rt.store.sessions.getSession(workspaceId, id)));
      if (rows.every((r) => r && TERMINAL.has(r.status))) return rows;
      await new Promise((r) => setTimeout(r, 100)); // the service's own process: poll gently
    }
  };
  await done((await startAll(tasks.slice(0, 5), 1_000)).sessionIds); // warm-up

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rt.supervisor.liveCount)), 2);
  const t0 = performance.now();
  const followEvery = Math.ceil((tasks.length - 5) / FOLLOWED);
  const { sessionIds: ids, report } = await startAll(tasks.slice(5), followEvery);
  const rows = await done(ids);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  client.kill();
  const latencies: number[] = [];
  for (const { sessionId, seen, connected } of report.sessions) {
    const logged = new Map(
      (await rt.store.streams.readStream(workspaceId, sessionId, 0, 10_000)).map((e) => [e.seq, e.at]),
    );
    // From when the client could first have it: its append, or the stream's opening for what was logged before.
    for (const s of seen) latencies.push(Math.max(0, s.at - Math.max(connected, logged.get(s.seq) ?? connected)));
  }
  let events = 0;
  for (const id of ids) events += (await rt.store.streams.readStream(workspaceId, id, 0, 10_000)).length;
  return {
    provider,
    sessions: ids.length,
    peakRunning: peak,
    seconds: round(seconds, 2),
    completedPerMinute: Math.round((rows.filter((r) => r!.status === "completed").length / seconds) * 60),
    failed: rows.filter((r) => r!.status !== "completed").length,
    eventsPerSession: round(events / ids.length, 1),
    eventLatency: summarize(latencies),
    followed: report.sessions.length,
  };
}
