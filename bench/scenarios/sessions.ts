// Chat sessions over HTTP with the extractive provider: time to the first token and to the turn's end, how many
// events/s one SSE stream delivers, and what turns running back to back cost a recall client in another process.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { parseSse } from "../../src/client/sse.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { BenchServer } from "../lib/server.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { cpuMsOf } from "../lib/proc.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type { RecallClientSamples, SpinnerInit, TurnClientCommand, TurnClientReport } from "../workers/protocol.ts";

export interface SessionsResult {
  firstToken: LatencySummary;
  turn: LatencySummary;
  eventsPerTurn: number;
  sse: { events: number; seconds: number; eventsPerSec: number };
  recallCost: RecallCost;
}

/**
 * Recall latency from another process, idle and while turns run back to back; and, as a control, while a process that
 * does nothing but spin keeps as many cores busy as the turns did (their client and the server's share, both measured).
 */
export interface RecallCost {
  idle: LatencySummary;
  duringTurns: LatencySummary;
  turns: number;
  p50Ratio: number;
  /** CPU the turns kept busy, in cores: the turn client's and what the server used beyond serving the recalls. */
  turnCores: number;
  /** What the spinner used, measured (its target is turnCores; absent in results written before it was). */
  spinCores?: number;
  duringSpin: LatencySummary;
  spinP50Ratio: number;
  /** The same turns sent to a second `smriti serve` process on the same vault instead (absent when none ran). */
  duringTurnsElsewhere?: LatencySummary;
  elsewhereP50Ratio?: number;
}

/** Turns per session before a new one: the extractive provider reads its history every step. */
const TURNS_PER_SESSION = 10;
const SSE_EVENTS = 20_000;
/** Recalls before the first measured one, and busy phases (each between two idle ones) for the recall cost. */
const RECALL_WARMUP = 500;
const BUSY_PHASES = 3;

const headers = (srv: BenchServer) => ({ authorization: `Bearer ${srv.token}`, "content-type": "application/json" });

/** Runs turns back to back in the turn client (its own process, like a chat application) and returns their timings. */
async function turns(client: ChildProcess, messages: readonly string[]): Promise<TurnClientReport> {
  const report = nextMessage<TurnClientReport>(client, isType("turns"));
  client.send({ type: "turns", messages: [...messages], turnsPerSession: TURNS_PER_SESSION } satisfies TurnClientCommand);
  return await report;
}

/** Time to the first token and to the turn's end, summarized. */
const turnTimes = (turns: TurnClientReport["turns"]) => ({ firstToken: summarize(turns.map((t) => t.first)), turn: summarize(turns.map((t) => t.end)) });

/** Time to the first token and to the end of turns run back to back from a client process, after five unmeasured. */
export async function timeTurns(srv: BenchServer, messages: readonly string[]): Promise<{ firstToken: LatencySummary; turn: LatencySummary }> {
  const client = forkClient("./turn-client.ts", { url: srv.url, token: srv.token });
  try {
    await nextMessage(client, isType("ready"));
    await turns(client, messages.slice(0, 5));
    const timed = (await turns(client, messages.slice(5))).turns;
    return turnTimes(timed);
  } finally {
    client.kill();
  }
}

/** CPU this process (the server) used while `work` ran, and the wall time, in ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const { user, system } = process.cpuUsage(cpu);
  return { value, cpuMs: (user + system) / 1000, wallMs: performance.now() - t0 };
}

/**
 * `elsewhereUrl`: a second server process on the same vault (the same tokens): its turns are measured against recall on
 * this one as well, the deployment that keeps sessions off the recall path.
 */
export async function benchSessions(srv: BenchServer, rt: FullRuntime, messages: readonly string[], recallQueries: string[], opts: { turns: number; busyTurns: number; idleQueries: number }, elsewhereUrl?: string): Promise<SessionsResult> {
  const turner = forkClient("./turn-client.ts", { url: srv.url, token: srv.token });
  const elsewhere = elsewhereUrl ? forkClient("./turn-client.ts", { url: elsewhereUrl, token: srv.token }) : null;
  const recaller = forkClient("./recall-client.ts", { url: srv.url, token: srv.token, queries: recallQueries, mode: "hybrid" });
  try {
    await Promise.all([turner, recaller, ...(elsewhere ? [elsewhere] : [])].map((c) => nextMessage(c, isType("ready"))));
    await turns(turner, messages.slice(0, 5)); // warm-up
    if (elsewhere) await turns(elsewhere, messages.slice(0, 5));
    const timedTurns = (await turns(turner, messages.slice(5, 5 + opts.turns))).turns;
    const sse = await oneStream(srv, rt);
    const recallCost = await measureRecallCost(recaller, turner, elsewhere, messages.slice(5 + opts.turns), opts);
    return {
      ...turnTimes(timedTurns),
      eventsPerTurn: round(timedTurns.reduce((n, t) => n + t.events, 0) / timedTurns.length, 1),
      sse,
      recallCost,
    };
  } finally {
    turner.kill();
    elsewhere?.kill();
    recaller.kill();
  }
}

// Recall from another process: idle, while turns run back to back on the server, idle, while a spinning process keeps
// as many cores busy as those turns did, (idle, while the same turns run on the second server,) and so on, every phase
// beside an idle one (the client keeps warming up, JIT and connections, long after its first requests).
async function measureRecallCost(recaller: ChildProcess, turner: ChildProcess, elsewhere: ChildProcess | null, messages: readonly string[], opts: { busyTurns: number; idleQueries: number }): Promise<RecallCost> {
  const recalls = async (count: number) => {
    recaller.send({ type: "run", count });
    return (await nextMessage<RecallClientSamples>(recaller, isType("samples"))).latencies;
  };
  /** Recalls in a loop while `work` runs. */
  const recallsDuring = async (work: () => Promise<unknown>) => {
    const samples = nextMessage<RecallClientSamples>(recaller, isType("samples"));
    recaller.send({ type: "loop" });
    await work();
    recaller.send({ type: "stop" });
    return (await samples).latencies;
  };
  await recalls(RECALL_WARMUP);
  const idle: number[] = [];
  const during: number[] = [];
  const spinning: number[] = [];
  const duringElsewhere: number[] = [];
  let busy = 0;
  let idleCpuMs = 0;
  const turnCpu = { cpuMs: 0, wallMs: 0 };
  const spinCpu = { cpuMs: 0, wallMs: 0 };
  const turnCores = () => turnCpu.cpuMs / turnCpu.wallMs;
  const idlePhase = async () => {
    const { value, cpuMs } = await timed(() => recalls(opts.idleQueries));
    idle.push(...value);
    idleCpuMs += cpuMs;
  };
  for (let phase = 0; phase < BUSY_PHASES; phase++) {
    await idlePhase();
    const batch = messages.slice(phase * opts.busyTurns, (phase + 1) * opts.busyTurns);
    let report: TurnClientReport | undefined;
    const { value, cpuMs, wallMs } = await timed(() => recallsDuring(async () => (report = await turns(turner, batch))));
    during.push(...value);
    busy += report!.turns.length;
    // The server's CPU beyond what serving those recalls costs alone (measured idle), and the turn client's.
    turnCpu.cpuMs += cpuMs - value.length * (idleCpuMs / idle.length) + report!.cpuMs;
    turnCpu.wallMs += wallMs;
    await idlePhase();
    const spinner = forkClient("./spinner.ts", { cores: turnCores() } satisfies SpinnerInit);
    const gone = once(spinner, "exit");
    try {
      await nextMessage(spinner, isType("ready"));
      const [cpu0, t0] = [cpuMsOf(spinner.pid!), performance.now()];
      spinning.push(...(await recallsDuring(() => sleep(wallMs))));
      spinCpu.cpuMs += cpuMsOf(spinner.pid!) - cpu0;
      spinCpu.wallMs += performance.now() - t0;
    } finally {
      spinner.kill();
      await gone;
    }
    if (elsewhere) {
      await idlePhase();
      duringElsewhere.push(...(await recallsDuring(() => turns(elsewhere, batch))));
    }
  }
  await idlePhase();
  const [idleSummary, duringSummary, spinSummary] = [idle, during, spinning].map(summarize) as [LatencySummary, LatencySummary, LatencySummary];
  return {
    idle: idleSummary,
    duringTurns: duringSummary,
    turns: busy,
    p50Ratio: round(duringSummary.p50 / idleSummary.p50, 3),
    turnCores: round(turnCores(), 2),
    spinCores: round(spinCpu.cpuMs / spinCpu.wallMs, 2),
    duringSpin: spinSummary,
    spinP50Ratio: round(spinSummary.p50 / idleSummary.p50, 3),
    ...(elsewhere ? ((x) => ({ duringTurnsElsewhere: x, elsewhereP50Ratio: round(x.p50 / idleSummary.p50, 3) }))(summarize(duringElsewhere)) : {}),
  };
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
