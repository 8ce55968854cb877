// Chat sessions over HTTP with the extractive provider: time to the first token and to the turn's end, how many
// events/s one SSE stream delivers, and what turns running back to back cost a recall client in another process; all
// against `smriti serve` processes, as they run.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { parseSse } from "../../src/client/sse.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { BenchServer } from "../lib/server.ts";
import { bracketed, type Phase } from "../lib/phases.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import { cpuMsOf } from "../lib/proc.ts";
import { forkClient, isType, nextMessage } from "../workers/ipc.ts";
import type {
  RecallClientSamples,
  SpinnerInit,
  TurnClientCommand,
  TurnClientInit,
  TurnClientReport,
} from "../workers/protocol.ts";

export interface SessionsResult {
  /** How long the default server's session process took to answer after the first session request woke it (ms). */
  sessionProcessReadyMs: number | null;
  firstToken: LatencySummary;
  turn: LatencySummary;
  eventsPerTurn: number;
  sse: { events: number; seconds: number; eventsPerSec: number };
  recallCost: RecallCost;
}

/**
 * Recall latency from another process, idle and while turns run back to back on the same `smriti serve`; as a control,
 * while a process that does nothing but spin keeps as many cores busy as the turns did (their client and the server's
 * share, both measured); and the same on a `smriti serve` that runs its turns in the serving process. Every busy phase
 * comes twice: its turns from a client at normal priority, and from one at nice 19 (`clientAside`).
 */
export interface RecallCost {
  /** Every idle and every turns phase's samples, pooled. */
  idle: LatencySummary;
  duringTurns: LatencySummary;
  turns: number;
  /** The median over the turns phases of each one's p50 over its two idle neighbours' (`bracketed`). */
  p50Ratio: number;
  /** Each turns phase's ratio, in the order they ran. */
  phaseRatios: number[];
  /** The pooled samples' p50s' ratio (the figure before 2026-11-27, which the server's drift over a run moves). */
  pooledP50Ratio: number;
  /** CPU the turns kept busy, in cores: the turn client's and what the server's processes used beyond the recalls. */
  turnCores: number;
  /** What the spinner used, measured (its target is turnCores). */
  spinCores: number;
  duringSpin: LatencySummary;
  spinP50Ratio: number;
  /** The turns run in the serving process (SMRITI_SESSION_PROCESS=0), recall measured against that server's idle phases. */
  inServingProcess?: { idle: LatencySummary; duringTurns: LatencySummary; p50Ratio: number };
  /**
   * The same turns from a client at nice 19: the chat application as if on another machine, its own CPU (parsing ~30
   * events a turn) no longer competing on the two cores with the recall client and the server.
   */
  clientAside: {
    nice: number;
    duringTurns: LatencySummary;
    p50Ratio: number;
    inServingProcess?: { duringTurns: LatencySummary; p50Ratio: number };
  };
}

/** The turn client's nice value for `clientAside`. */
const ASIDE_NICE = 19;

/** A `smriti serve` under measure: its address, a token, and the CPU its processes (the session process too) used so far. */
export interface ServedBench {
  url: string;
  token: string;
  cpuMs(): number;
  /** Settles once its session process answers, if it starts one on demand: how long that took after it was woken (ms). */
  sessionProcessReady?(): Promise<number>;
}

/** Turns per session before a new one: the extractive provider reads its history every step. */
const TURNS_PER_SESSION = 10;
const SSE_EVENTS = 20_000;
/** Recalls before the first measured one, and busy phases (each between two idle ones) for the recall cost. */
const RECALL_WARMUP = 500;
const BUSY_PHASES = 4;

/** Where a scenario sends its requests, and the token. */
type Target = Pick<BenchServer, "url" | "token">;

const headers = (srv: Target) => ({ authorization: `Bearer ${srv.token}`, "content-type": "application/json" });

/** Runs turns back to back in the turn client (its own process, like a chat application) and returns their timings. */
async function turns(client: ChildProcess, messages: readonly string[]): Promise<TurnClientReport> {
  const report = nextMessage<TurnClientReport>(client, isType("turns"));
  client.send({
    type: "turns",
    messages: [...messages],
    turnsPerSession: TURNS_PER_SESSION,
  } satisfies TurnClientCommand);
  return await report;
}

/** Time to the first token and to the turn's end, summarized. */
const turnTimes = (turns: TurnClientReport["turns"]) => ({
  firstToken: summarize(turns.map((t) => t.first)),
  turn: summarize(turns.map((t) => t.end)),
});

/** Time to the first token and to the end of turns run back to back from a client process, after five unmeasured. */
export async function timeTurns(
  srv: Target,
  messages: readonly string[],
): Promise<{ firstToken: LatencySummary; turn: LatencySummary }> {
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

/** The CPU `srv`'s processes used while `work` ran, and the wall time, in ms. */
async function timed<T>(
  srv: ServedBench,
  work: () => Promise<T>,
): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const [cpu, t0] = [srv.cpuMs(), performance.now()];
  const value = await work();
  return { value, cpuMs: srv.cpuMs() - cpu, wallMs: performance.now() - t0 };
}

/**
 * `served`: `smriti serve` as it runs by default (the turns in its session process, woken by the first session request
 * and `sessionProcessReadyMs` later answering); `joined`: the same on the same vault with SMRITI_SESSION_PROCESS=0, its
 * turns in the process that answers the recalls.
 */
export async function benchSessions(
  served: ServedBench,
  joined: ServedBench | null,
  rt: FullRuntime,
  messages: readonly string[],
  recallQueries: string[],
  opts: { turns: number; busyTurns: number; idleQueries: number },
): Promise<SessionsResult> {
  const clientsOf = (srv: ServedBench) => ({
    srv,
    turner: forkClient("./turn-client.ts", { url: srv.url, token: srv.token } satisfies TurnClientInit),
    asideTurner: forkClient("./turn-client.ts", {
      url: srv.url,
      token: srv.token,
      nice: ASIDE_NICE,
    } satisfies TurnClientInit),
    recaller: forkClient("./recall-client.ts", {
      url: srv.url,
      token: srv.token,
      queries: recallQueries,
      mode: "hybrid",
    }),
  });
  // Five to warm up, the timed turns, and a distinct message for every turn of every busy phase.
  const needed = 5 + opts.turns + BUSY_PHASES * (joined ? 2 : 1) * 2 * opts.busyTurns;
  if (messages.length < needed)
    throw new Error(`bench: the sessions scenario needs ${needed} messages, given ${messages.length}`);
  const sides = [clientsOf(served), ...(joined ? [clientsOf(joined)] : [])];
  try {
    await Promise.all(
      sides.flatMap((c) => [c.turner, c.asideTurner, c.recaller]).map((c) => nextMessage(c, isType("ready"))),
    );
    for (const side of sides)
      for (const turner of [side.turner, side.asideTurner]) await turns(turner, messages.slice(0, 5)); // warm-up
    const sessionProcessReadyMs = (await served.sessionProcessReady?.()) ?? null; // woken by the warm-up: its turns are timed
    const timedTurns = (await turns(sides[0]!.turner, messages.slice(5, 5 + opts.turns))).turns;
    const sse = await oneStream(served, rt);
    const recallCost = await measureRecallCost(sides, messages.slice(5 + opts.turns), opts);
    return {
      sessionProcessReadyMs,
      ...turnTimes(timedTurns),
      eventsPerTurn: round(timedTurns.reduce((n, t) => n + t.events, 0) / timedTurns.length, 1),
      sse,
      recallCost,
    };
  } finally {
    for (const side of sides) for (const c of [side.turner, side.asideTurner, side.recaller]) c.kill();
  }
}

interface Side {
  srv: ServedBench;
  turner: ChildProcess;
  asideTurner: ChildProcess;
  recaller: ChildProcess;
}

// Recall from another process, on each server in turn (which goes first alternates): idle, while turns run back to back
// on that server, idle, while turns run from the client at nice 19, idle (which client goes first alternates too); on
// the first server then beside a spinning process as well, and idle again. Every busy phase sits between two idle ones
// of its own server and is compared with them (`bracketed`): a server's recalls keep getting faster for the whole run
// (the server's own time too: p50 3.8 ms in the first idle phase and 1.2 ms in the last, in one run at 10k), so samples
// of all phases pooled weigh each phase by when it ran; and with a fixed order, the phase always last read 0.1 lower.
async function measureRecallCost(
  sides: Side[],
  messages: readonly string[],
  opts: { busyTurns: number; idleQueries: number },
): Promise<RecallCost> {
  const recalls = async (side: Side, count: number) => {
    side.recaller.send({ type: "run", count });
    return (await nextMessage<RecallClientSamples>(side.recaller, isType("samples"))).latencies;
  };
  /** Recalls in a loop while `work` runs. */
  const recallsDuring = async (side: Side, work: () => Promise<unknown>) => {
    const samples = nextMessage<RecallClientSamples>(side.recaller, isType("samples"));
    side.recaller.send({ type: "loop" });
    await work();
    side.recaller.send({ type: "stop" });
    return (await samples).latencies;
  };
  for (const side of sides) await recalls(side, RECALL_WARMUP);
  const phases: Phase<"turns" | "aside" | "spin">[][] = sides.map(() => []);
  let busy = 0;
  let idleCpuPerRecall = 0; // the server's, in the idle phase just before: it falls over the run as recalls do
  const turnCpu = { cpuMs: 0, wallMs: 0 };
  const spinCpu = { cpuMs: 0, wallMs: 0 };
  const turnCores = () => turnCpu.cpuMs / turnCpu.wallMs;
  let lastBusyMs = 0;
  let next = 0;
  const batch = () => messages.slice(next, (next += opts.busyTurns));
  const idlePhase = async (i: number) => {
    const { value, cpuMs } = await timed(sides[i]!.srv, () => recalls(sides[i]!, opts.idleQueries));
    phases[i]!.push({ kind: "idle", samples: value });
    if (i === 0) idleCpuPerRecall = cpuMs / value.length;
  };
  const busyPhase = async (i: number, aside: boolean) => {
    const side = sides[i]!;
    let report: TurnClientReport | undefined;
    const turner = aside ? side.asideTurner : side.turner;
    const { value, cpuMs, wallMs } = await timed(side.srv, () =>
      recallsDuring(side, async () => (report = await turns(turner, batch()))),
    );
    phases[i]!.push({ kind: aside ? "aside" : "turns", samples: value });
    if (i !== 0 || aside) return;
    lastBusyMs = wallMs;
    busy += report!.turns.length;
    // The server's CPU beyond what serving those recalls costs alone (measured idle), and the turn client's.
    turnCpu.cpuMs += cpuMs - value.length * idleCpuPerRecall + report!.cpuMs;
    turnCpu.wallMs += wallMs;
  };
  const spinPhase = async () => {
    const spinner = forkClient("./spinner.ts", { cores: turnCores() } satisfies SpinnerInit);
    const gone = once(spinner, "exit");
    try {
      await nextMessage(spinner, isType("ready"));
      const [cpu0, t0] = [cpuMsOf(spinner.pid!), performance.now()];
      phases[0]!.push({ kind: "spin", samples: await recallsDuring(sides[0]!, () => sleep(lastBusyMs)) });
      spinCpu.cpuMs += cpuMsOf(spinner.pid!) - cpu0;
      spinCpu.wallMs += performance.now() - t0;
    } finally {
      spinner.kill();
      await gone;
    }
  };
  for (let phase = 0; phase < BUSY_PHASES; phase++) {
    const order = phase % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const i of order) {
      await idlePhase(i);
      for (const aside of phase % 2 === 0 ? [false, true] : [true, false]) {
        await busyPhase(i, aside);
        await idlePhase(i);
      }
      if (i !== 0) continue;
      await spinPhase();
      await idlePhase(i);
    }
  }
  const pooled = (side: readonly Phase[], kind: string) =>
    summarize(side.filter((p) => p.kind === kind).flatMap((p) => p.samples));
  const [first, second] = [phases[0]!, phases[1]];
  const turnsRatio = bracketed(first, "turns");
  const idle = pooled(first, "idle");
  const duringTurns = pooled(first, "turns");
  return {
    idle,
    duringTurns,
    turns: busy,
    p50Ratio: turnsRatio.ratio,
    phaseRatios: turnsRatio.phases,
    pooledP50Ratio: round(duringTurns.p50 / idle.p50, 3),
    turnCores: round(turnCores(), 2),
    spinCores: round(spinCpu.cpuMs / spinCpu.wallMs, 2),
    duringSpin: pooled(first, "spin"),
    spinP50Ratio: bracketed(first, "spin").ratio,
    ...(second
      ? {
          inServingProcess: {
            idle: pooled(second, "idle"),
            duringTurns: pooled(second, "turns"),
            p50Ratio: bracketed(second, "turns").ratio,
          },
        }
      : {}),
    clientAside: {
      nice: ASIDE_NICE,
      duringTurns: pooled(first, "aside"),
      p50Ratio: bracketed(first, "aside").ratio,
      ...(second
        ? { inServingProcess: { duringTurns: pooled(second, "aside"), p50Ratio: bracketed(second, "aside").ratio } }
        : {}),
    },
  };
}

/** One stream carrying SSE_EVENTS logged events, read to its end by a client. */
async function oneStream(srv: Target, rt: FullRuntime): Promise<SessionsResult["sse"]> {
  const created = await fetch(`${srv.url}/chat/sessions`, { method: "POST", headers: headers(srv), body: "{}" });
  const { session_id, workspace_id } = (await created.json()) as { session_id: string; workspace_id: string };
  for (let i = 0; i < SSE_EVENTS; i += 1_000)
    await rt.store.streams.appendStream(
      workspace_id,
      session_id,
      Array.from({ length: 1_000 }, (_, j) => ({
        type: "token",
        at: Date.now(),
        data: { turn_id: "trn_bench", text: `word${i + j} ` },
      })),
    );
  const t0 = performance.now();
  const res = await fetch(`${srv.url}/sessions/${session_id}/events/stream?follow=false`, { headers: headers(srv) });
  let received = 0;
  for await (const _ of parseSse(res.body!)) received++;
  const seconds = (performance.now() - t0) / 1000;
  return { events: received, seconds: round(seconds, 3), eventsPerSec: Math.round(received / seconds) };
}
