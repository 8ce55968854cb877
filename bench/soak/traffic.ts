// Phase 5: a steady mix of the calls agents make (recall, pack, grounded answer, ingest, forget, a chat turn) for a
// fixed time, with the service's memory at the start and the end; and, meanwhile, a reader that drops and resumes one
// session's event stream a thousand times with Last-Event-ID while turns keep writing to it.
import { parseSse } from "../../src/client/sse.ts";
import { round, summarize, type LatencySummary } from "../lib/stats.ts";
import type { Serve } from "./serve.ts";

export interface TrafficResult {
  seconds: number;
  ratePerSecond: number;
  requests: number;
  errors: number;
  byRoute: Record<string, LatencySummary & { errors: number }>;
  /** RSS at the first sample, the highest, and at the end. The heap grows until a major collection gives memory back
   * (in a 150 s run: 230 MB, up to 305 at 95 s, then 214), so the bound is on the peak. */
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  /** RSS every few seconds over the run: [seconds, MB]. */
  rssTimeline: [number, number][];
  reconnects: { count: number; events: number; lost: number; duplicated: number };
  examples: string[];
}

/** Paths ingest and forget take turns on, so the vault's size stays level and growth would mean a leak. */
const PATHS = 50;
/** Turns a chat session takes before the next one starts: sessions of a realistic length, so the run measures the
 * service's steady state rather than how turns grow with a session (bench/README.md "Reliability and security"). */
const SESSION_TURNS = 20;
const WORDS = [
  "lighthouse",
  "keeper",
  "ledger",
  "postgres",
  "friday",
  "design",
  "alpha",
  "review",
  "budget",
  "launch",
  "beacon",
  "harbour",
];

function note(i: number): string {
  const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length];
  return `# Note ${i}\n\nThe ${w(0)} team decided to move the ${w(1)} to ${w(2)} on ${w(3)}.\n\n- [ ] TODO check the ${w(4)} with the ${w(5)}\n`;
}

export async function traffic(
  srv: Serve,
  token: string,
  opts: { seconds: number; rate: number; reconnects: number },
): Promise<TrafficResult> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const post = (path: string, body: unknown) =>
    fetch(`${srv.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  const examples: string[] = [];
  const samples = new Map<string, { ms: number[]; errors: number }>();
  const record = (route: string, ms: number, ok: boolean, what: string) => {
    const s = samples.get(route) ?? { ms: [], errors: 0 };
    s.ms.push(ms);
    if (!ok) {
      s.errors++;
      if (examples.length < 10) examples.push(`${route}: ${what}`);
    }
    samples.set(route, s);
  };
  for (let i = 0; i < PATHS; i++) await post("/v1/memory/ingest", { source_path: `soak/${i}.md`, content: note(i) });
  const newChat = async () => ((await (await post("/chat/sessions", {})).json()) as { session_id: string }).session_id;
  let chat = await newChat();
  let chatTurns = 0;

  let seq = 0;
  const ops: [string, number, () => Promise<Response | "streamed">][] = [
    [
      "recall",
      40,
      () => post("/v1/memory/recall", { query: `${WORDS[seq % WORDS.length]} ${WORDS[(seq * 5) % WORDS.length]}` }),
    ],
    ["pack", 15, () => post("/v1/memory/pack", { intent: `what did the ${WORDS[seq % WORDS.length]} team decide` })],
    [
      "grounded answer",
      15,
      () =>
        post("/v1/grounded/answer", {
          question: `What did the ${WORDS[seq % WORDS.length]} team decide?`,
          min_confidence: 0,
        }),
    ],
    ["ingest", 15, () => post("/v1/memory/ingest", { source_path: `soak/${seq % PATHS}.md`, content: note(seq) })],
    ["forget", 5, () => post("/v1/memory/forget", { source_path: `soak/${(seq * 3) % PATHS}.md` })],
    [
      "chat turn",
      10,
      async () => {
        if (++chatTurns % SESSION_TURNS === 0) chat = await newChat();
        return turn(srv.url, token, chat, `What did the ${WORDS[seq % WORDS.length]} team decide?`);
      },
    ],
  ];
  const total = ops.reduce((n, [, w]) => n + w, 0);
  const pick = () => {
    let x = (seq * 37) % total;
    for (const op of ops) if ((x -= op[1]) < 0) return op;
    return ops[0]!;
  };

  const reader = resumingReader(srv.url, token, opts.reconnects);
  const started = performance.now();
  const rssTimeline: [number, number][] = [];
  const sampler = setInterval(
    () => rssTimeline.push([round((performance.now() - started) / 1000, 0), round(srv.rssMb(), 1)]),
    Math.max(1_000, (opts.seconds * 1000) / 30),
  );
  const inFlight = new Set<Promise<void>>();
  let turnBusy = false;
  while (performance.now() - started < opts.seconds * 1000) {
    const due = started + (seq * 1000) / opts.rate;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    seq++;
    const [route, , run] = pick();
    if (route === "chat turn" && turnBusy) continue; // one turn at a time in a session, as a person types
    if (route === "chat turn") turnBusy = true;
    const t0 = performance.now();
    const p = run()
      .then(async (res) => {
        const ok = res === "streamed" || res.ok || (route === "grounded answer" && res.status === 422);
        record(
          route,
          performance.now() - t0,
          ok,
          res === "streamed" ? "" : `${res.status} ${ok ? "" : (await res.text()).slice(0, 160)}`,
        );
      })
      .catch((err: unknown) => record(route, performance.now() - t0, false, (err as Error).message))
      .finally(() => {
        if (route === "chat turn") turnBusy = false;
        inFlight.delete(p);
      });
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rssStartMb = rssTimeline[0]?.[1] ?? 0;
  const rssPeakMb = Math.max(...rssTimeline.map(([, mb]) => mb));
  const rssEndMb = round(srv.rssMb(), 1);
  const reconnects = await reader.finish();
  const byRoute: TrafficResult["byRoute"] = {};
  let requests = 0;
  let errors = 0;
  for (const [route, s] of samples) {
    byRoute[route] = { ...summarize(s.ms), errors: s.errors };
    requests += s.ms.length;
    errors += s.errors;
  }
  return {
    seconds: round(seconds, 1),
    ratePerSecond: opts.rate,
    requests,
    errors,
    byRoute,
    rssStartMb,
    rssPeakMb,
    rssEndMb,
    rssTimeline,
    reconnects,
    examples,
  };
}

/** One chat turn, read to its end. */
async function turn(base: string, token: string, sessionId: string, message: string): Promise<"streamed"> {
  const res = await fetch(`${base}/chat/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ message }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`turn: ${res.status} ${await res.text()}`);
  for await (const _ of parseSse(res.body!));
  return "streamed";
}

/**
 * Sessions whose turns run back to back (a new one every SESSION_TURNS turns, a realistic length), and a reader that
 * takes a few events, drops the connection and resumes with Last-Event-ID until it has done so `count` times. After
 * each session every logged event must have been seen exactly once.
 */
function resumingReader(base: string, token: string, count: number) {
  const h = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const tally = { count: 0, events: 0, lost: 0, duplicated: 0 };
  /** Reads the session's stream from `last` on, `take` events at most (all of it without following when take is Infinity). */
  const read = async (
    sessionId: string,
    state: { last: string | null; seen: number[] },
    take: number,
    stop?: AbortSignal,
  ) => {
    const ctl = new AbortController();
    const res = await fetch(`${base}/sessions/${sessionId}/events/stream${take === Infinity ? "?follow=false" : ""}`, {
      headers: { authorization: h.authorization, ...(state.last ? { "last-event-id": state.last } : {}) },
      signal: stop ? AbortSignal.any([ctl.signal, stop]) : ctl.signal,
    });
    if (!res.ok) throw new Error(`resume: ${res.status} ${await res.text()}`);
    let n = 0;
    try {
      for await (const e of parseSse(res.body!)) {
        state.last = e.id ?? state.last;
        state.seen.push(Number(e.id!.split("/")[1]));
        if (++n >= take) break;
      }
    } finally {
      ctl.abort();
    }
  };
  const oneSession = async () => {
    const sessionId = (
      (await (await fetch(`${base}/chat/sessions`, { method: "POST", headers: h, body: "{}" })).json()) as {
        session_id: string;
      }
    ).session_id;
    let writing = true;
    const stop = new AbortController();
    const writer = (async () => {
      try {
        for (let i = 0; i < SESSION_TURNS; i++)
          await turn(base, token, sessionId, `Question ${i}: what did the ${WORDS[i % WORDS.length]} team decide?`);
      } finally {
        writing = false;
        stop.abort();
      }
    })();
    const state = { last: null as string | null, seen: [] as number[] };
    // Resumes while turns are written (a follower at the head waits for the next event, cut once the writing ends),
    // then reads the rest.
    while (writing && tally.count < count) {
      const ended = await read(sessionId, state, 1 + (tally.count % 5), stop.signal).then(
        () => true,
        () => false,
      );
      if (ended) tally.count++;
    }
    await writer;
    await read(sessionId, state, Infinity);
    const all: number[] = [];
    for await (const e of parseSse(
      (
        await fetch(`${base}/sessions/${sessionId}/events/stream?follow=false`, {
          headers: { authorization: h.authorization },
        })
      ).body!,
    ))
      all.push(Number(e.id!.split("/")[1]));
    const counts = new Map<number, number>();
    for (const s of state.seen) counts.set(s, (counts.get(s) ?? 0) + 1);
    tally.events += all.length;
    tally.lost += all.filter((s) => !counts.has(s)).length;
    tally.duplicated += [...counts.values()].filter((n) => n > 1).length;
  };
  const done = (async () => {
    while (tally.count < count) await oneSession();
  })();
  return { finish: async () => (await done, tally) };
}
