// Chat sessions over HTTP with the extractive provider: time to the first token and to the turn's end, how many
// events/s one SSE stream delivers, and what turns running back to back cost a recall client in another process.
import type { ChildProcess } from "node:child_process";
import { parseSse } from "../../src/client/sse.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { RecallClientSamples, TurnClientCommand, TurnClientReport } from "../workers/protocol.ts";

export interface SessionsResult {
  firstToken: LatencySummary;
  turn: LatencySummary;
  eventsPerTurn: number;
  sse: { events: number; seconds: number; eventsPerSec: number };
  recallCost: { idle: LatencySummary; duringTurns: LatencySummary; turns: number; p50Ratio: number };
}

/** Turns per session before a new one: the extractive provider reads its history every step. */
const TURNS_PER_SESSION = 10;
const SSE_EVENTS = 20_000;
/** Recalls before the first measured one, and busy phases (each between two idle ones) for the recall cost. */
const RECALL_WARMUP = 500;
const BUSY_PHASES = 3;

const headers = (srv: BenchServer) => ({ authorization: `Bearer ${srv.token}`, "content-type": "application/json" });

/** Runs turns back to back in the turn client (its own process, like a chat application) and returns their timings. */
async function turns(client: ChildProcess, messages: readonly string[]): Promise<TurnClientReport["turns"]> {
  const report = nextMessage<TurnClientReport>(client, isType("turns"));
  client.send({ type: "turns", messages: [...messages], turnsPerSession: TURNS_PER_SESSION } satisfies TurnClientCommand);
  return (await report).turns;
}

export async function benchSessions(srv: BenchServer, rt: FullRuntime, messages: readonly string[], recallQueries: string[], opts: { turns: number; busyTurns: number; idleQueries: number }): Promise<SessionsResult> {
  const turner = forkClient("./turn-client.ts", { url: srv.url, token: srv.token });
  const recaller = forkClient("./recall-client.ts", { url: srv.url, token: srv.token, queries: recallQueries, mode: "hybrid" });
  try {
    await Promise.all([nextMessage(turner, isType("ready")), nextMessage(recaller, isType("ready"))]);
    await turns(turner, messages.slice(0, 5)); // warm-up
    const timed = await turns(turner, messages.slice(5, 5 + opts.turns));
    const sse = await oneStream(srv, rt);

    // Recall from another process, idle and while turns run back to back on the server, in alternating phases: the
    // client keeps warming up (JIT, connections) long after its first requests, so each busy phase has idle ones beside it.
    const recalls = async (count: number) => {
      recaller.send({ type: "run", count });
      return (await nextMessage<RecallClientSamples>(recaller, isType("samples"))).latencies;
    };
    await recalls(RECALL_WARMUP);
    const idle: number[] = [];
    const during: number[] = [];
    let busy = 0;
    for (let phase = 0, from = 5 + opts.turns; phase < BUSY_PHASES; phase++, from += opts.busyTurns) {
      idle.push(...(await recalls(opts.idleQueries)));
      const samples = nextMessage<RecallClientSamples>(recaller, isType("samples"));
      recaller.send({ type: "loop" });
      busy += (await turns(turner, messages.slice(from, from + opts.busyTurns))).length;
      recaller.send({ type: "stop" });
      during.push(...(await samples).latencies);
    }
    idle.push(...(await recalls(opts.idleQueries)));
    const idleSummary = summarize(idle);
    const duringSummary = summarize(during);
    return {
      firstToken: summarize(timed.map((t) => t.first)),
      turn: summarize(timed.map((t) => t.end)),
      eventsPerTurn: round(timed.reduce((n, t) => n + t.events, 0) / timed.length, 1),
      sse,
      recallCost: { idle: idleSummary, duringTurns: duringSummary, turns: busy, p50Ratio: round(duringSummary.p50 / idleSummary.p50, 3) },
    };
  } finally {
    turner.kill();
    recaller.kill();
  }
}

/** One stream carrying SSE_EVENTS logged events, read to its end by a client. */
async function oneStream(srv: BenchServer, rt: FullRuntime): Promise<SessionsResult["sse"]> {
  const created = await fetch(`${srv.url}/chat/sessions`, { method: "POST", headers: headers(srv), body: "{}" });
  const { session_id, workspace_id } = (await created.json()) as { session_id: string; workspace_id: string };
  for (let i = 0; i < SSE_EVENTS; i += 1_000)
    await rt.store.appendStream(workspace_id, session_id, Array.from({ length: 1_000 }, (_, j) => ({ type: "token", at: Date.now(), data: { turn_id: "trn_bench", text: `word${i + j} ` } })));
  const t0 = performance.now();
  const res = await fetch(`${srv.url}/sessions/${session_id}/events/stream?follow=false`, { headers: headers(srv) });
  let received = 0;
  for await (const _ of parseSse(res.body!)) received++;
  const seconds = (performance.now() - t0) / 1000;
  return { events: received, seconds: round(seconds, 3), eventsPerSec: Math.round(received / seconds) };
}
