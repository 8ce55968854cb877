// `smriti serve`'s session process: the serving process hands it each connection whose first request is a session route,
// the bytes already read travelling with the socket. Its runs are its own, a stream followed through the serving process
// sees its appends at once, and while it is down the serving process answers those routes itself. With
// SMRITI_SESSION_PROCESS=1 it runs from start to stop; by default it starts when needed and stops when idle.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { childPids } from "../../bench/lib/proc.ts";
import { POLICY_FIELD, SCHED_IDLE, threadStat } from "../../src/sessions/process/cpu-priority.ts";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import { caller, readSse } from "../sessions/support.ts";
import {
  cliEnv,
  processAlive,
  runJsonHere,
  SESSION_PROCESS_READY,
  sessionPids,
  startServe,
  untilLogged,
  type RunningServe,
} from "./cli-helpers.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-session-process-"));
const servers: RunningServe[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(root, { recursive: true, force: true });
});

async function serve(name: string, extra: Record<string, string> = {}) {
  const data = join(root, name);
  const env = cliEnv({ SMRITI_SESSION_HEARTBEAT_MS: "200", SMRITI_SESSION_PROCESS: "1", ...extra });
  const { token } = await runJsonHere<{ token: string }>(["token", "create", "--json", "--data", data], { env });
  const server = await startServe(data, env);
  servers.push(server);
  return { server, token, call: caller(token) };
}

/**
 * One server with the default settings for the tests that only use it, its session process killed in the last but one
 * and the server stopped in the last (a server and its session process cost some 2 s of CPU to start).
 */
let shared: ReturnType<typeof serve> | null = null;
const sharedServe = () => (shared ??= serve("shared"));

/** A POST written to a fresh socket in pieces, 30 ms apart: the request line split, the body after the headers. */
async function postInPieces(url: string, token: string, path: string, body: object): Promise<string> {
  const payload = JSON.stringify(body);
  const head = `POST ${path} HTTP/1.1\r\nhost: smriti\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\n`;
  const pieces = [
    head.slice(0, 3),
    head.slice(3),
    `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n`,
    payload.slice(0, 7),
    payload.slice(7),
  ];
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  await new Promise((r) => socket.once("connect", r));
  let answer = "";
  socket.setEncoding("utf8").on("data", (d: string) => (answer += d));
  const ended = new Promise((r) => socket.once("close", r));
  for (const piece of pieces) {
    socket.write(piece);
    await sleep(30);
  }
  await ended;
  return answer;
}

/** The process ids that ran a background session started over HTTP, from its session_state events. */
async function runBy(call: ReturnType<typeof caller>, url: string, task: string): Promise<string[]> {
  const created = await call(url, "/sessions", { task, approval_mode: "never" });
  return runnersOf(call, url, ((await created.json()) as { session: { session_id: string } }).session.session_id);
}

/** The process ids that ran background session `sid`, once it has completed (within `ms`). */
async function runnersOf(call: ReturnType<typeof caller>, url: string, sid: string, ms = 20_000): Promise<string[]> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(50)) {
    const events = await readSse(await call(url, `/sessions/${sid}/events/stream?follow=false`));
    const states = events
      .filter((e) => e.event === "session_state")
      .map((e) => e.data as { status: string; process_id?: string | null });
    if (states.at(-1)?.status === "completed")
      return states.filter((s) => s.status === "running").map((s) => s.process_id ?? "");
  }
  throw new Error(`background session ${sid} did not complete`);
}

const pidIn = (pid: number | null) => `:${pid}:`;

/** Field `field` of /proc/<pid>/task/<tid>/stat for each thread of process `pid`; one that ended meanwhile is left out. */
const threadStats = (pid: number, field: number): number[] =>
  readdirSync(`/proc/${pid}/task`).flatMap((tid) => threadStat(pid, Number(tid), field) ?? []);
const threadNices = (pid: number) => threadStats(pid, 19);
const threadPolicies = (pid: number) => threadStats(pid, POLICY_FIELD);

/** The test runner's own nice value: the session process's can only be at or below it. */
const OWN_NICE = getPriority();
/** The runner's own scheduling policy (0, SCHED_OTHER, unless it runs under chrt), which a server started here takes. */
const OWN_POLICY = threadPolicies(process.pid).at(0);
/** util-linux's chrt, which sets SCHED_IDLE (Debian's util-linux is essential: on CI it is there). */
const HAS_CHRT = spawnSync("chrt", ["--version"]).status === 0;

describe("smriti serve's session process", { timeout: 90_000 }, () => {
  it("runs the session routes: background runs are its own, and a turn sent in pieces streams back whole", async () => {
    const { server, token, call } = await sharedServe();
    expect(server.sessionPid).not.toBeNull();
    expect(server.sessionPid).not.toBe(server.child.pid);
    const runners = await runBy(call, server.url, "What do we know about the billing service?");
    expect(runners.length).toBeGreaterThan(0);
    expect(runners.every((p) => p.includes(pidIn(server.sessionPid)))).toBe(true);

    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    const answer = await postInPieces(server.url, token, `/chat/sessions/${sid}/messages`, {
      message: "what did we decide?",
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    const events = [...answer.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events.slice(0, 2)).toEqual(["session", "turn_start"]);
    expect(events.at(-1)).toBe("completed");

    // At nice 19 by default, every thread of it, the ones its turns started too (the planning pool); the serving process's at its own.
    const [serving, sessions] = [threadNices(server.child.pid!), threadNices(server.sessionPid!)];
    expect(server.log()).toContain(`[smriti sessions] at nice ${Math.max(OWN_NICE, 19)}`);
    expect(new Set(sessions)).toEqual(new Set([Math.max(OWN_NICE, 19)]));
    expect(new Set(serving)).toEqual(new Set([OWN_NICE]));
  });

  // A runner already at nice 19 has no lower priority to give (the session process stays at 19 whatever it is told).
  it.skipIf(OWN_NICE >= 19)("takes the CPU priority SMRITI_SESSION_NICE names, below the runner's own", async () => {
    const wanted = Math.min(19, OWN_NICE + 7);
    // A planning pool (the session process plans on its loop by default) for threads started after the priority was set.
    const { server, call } = await serve("nice", { SMRITI_SESSION_NICE: String(wanted), SMRITI_PLAN_WORKERS: "1" });
    const before = threadNices(server.sessionPid!);
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    expect(
      (await readSse(await call(server.url, `/chat/sessions/${sid}/messages`, { message: "What did we decide?" }))).at(
        -1,
      )!.event,
    ).toBe("completed");
    const after = threadNices(server.sessionPid!);
    expect(after.length).toBeGreaterThan(before.length); // the turn started the planning pool: new threads take the main thread's
    expect(new Set(after)).toEqual(new Set([wanted]));
  });

  // Without chrt the session process keeps nice alone and says so in its log; this checks the policy it then has.
  it.skipIf(!HAS_CHRT)("runs under SCHED_IDLE, every thread of it, unless SMRITI_SESSION_SCHED_IDLE=0", async () => {
    const { server, call } = await serve("idle-policy", { SMRITI_PLAN_WORKERS: "1" });
    expect(server.log()).toContain("SCHED_IDLE (SMRITI_SESSION_SCHED_IDLE)");
    expect(server.log()).not.toContain("not SCHED_IDLE");
    const before = threadPolicies(server.sessionPid!);
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    expect(
      (await readSse(await call(server.url, `/chat/sessions/${sid}/messages`, { message: "What did we decide?" }))).at(
        -1,
      )!.event,
    ).toBe("completed");
    const after = threadPolicies(server.sessionPid!);
    expect(after.length).toBeGreaterThan(before.length); // the planning pool, started by the turn, took the main thread's
    expect(new Set(after)).toEqual(new Set([SCHED_IDLE]));
    expect(new Set(threadPolicies(server.child.pid!))).toEqual(new Set([OWN_POLICY]));

    const off = await serve("normal-policy", { SMRITI_SESSION_SCHED_IDLE: "0" });
    expect(off.server.log()).not.toContain("SCHED_IDLE");
    expect(new Set(threadPolicies(off.server.sessionPid!))).toEqual(new Set([OWN_POLICY]));
  });

  it("wakes a stream followed through the serving process at once when the session process appends", async () => {
    const { server, call, token } = await sharedServe();
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    // One connection, kept by the serving process: its first request is not a session route.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<import("node:http").IncomingMessage>((resolve, reject) =>
        request(`${server.url}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, resolve)
          .on("error", reject)
          .end(),
      );
    (await get("/healthz")).resume();
    await sleep(50);
    const followed = await get(`/sessions/${sid}/events/stream`);
    const seen: { event: SseEvent; at: number }[] = [];
    const following = (async () => {
      for await (const event of parseSse(followed as unknown as ReadableStream<Uint8Array>)) {
        seen.push({ event, at: performance.now() });
        if (event.event === "completed") return;
      }
    })();
    const turn = await readSse(await call(server.url, `/chat/sessions/${sid}/messages`, { message: "hello" }));
    const turnEnded = performance.now();
    await following;
    agent.destroy();
    expect(seen.map((s) => s.event.id)).toEqual(turn.map((e) => e.id));
    // Told by the session process, not found by the follower's poll a second later.
    expect(seen.at(-1)!.at - turnEnded).toBeLessThan(700);
  });

  it("answers the session routes itself while its session process is down, and starts another", async () => {
    const { server, call } = await sharedServe();
    const first = server.sessionPid!;
    process.kill(first, "SIGKILL");
    for (let i = 0; i < 100 && !server.log().includes("session process exited by SIGKILL"); i++) await sleep(20);
    expect(server.log()).toContain("session routes served here");
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    const turn = await readSse(await call(server.url, `/chat/sessions/${sid}/messages`, { message: "hello" }));
    expect(turn.at(-1)!.event).toBe("completed");

    let next: number | null = null;
    for (let i = 0; i < 300 && next === null; i++, await sleep(50)) {
      const pids = sessionPids(server.log());
      next = pids.find((p) => p !== first) ?? null;
    }
    expect(next).not.toBeNull();
    const runners = await runBy(call, server.url, "What do we know about the reports job?");
    expect(runners.every((p) => p.includes(pidIn(next)))).toBe(true);
  });

  it("stops with the serving process on SIGTERM, a stream it holds open or not", async () => {
    const { server, call } = await sharedServe();
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    const open = await call(server.url, `/sessions/${sid}/events/stream`); // live: it never ends by itself
    expect(open.status).toBe(200);
    const stopped = performance.now();
    await server.stop();
    expect(performance.now() - stopped).toBeLessThan(10_000);
    for (let i = 0; i < 100 && processAlive(server.sessionPid!); i++) await sleep(20);
    expect(processAlive(server.sessionPid!)).toBe(false);
    await open.body?.cancel().catch(() => {});
  });

  it("runs the sessions in the serving process with SMRITI_SESSION_PROCESS=0", async () => {
    const { server, call } = await serve("alone", { SMRITI_SESSION_PROCESS: "0" });
    const runners = await runBy(call, server.url, "What do we know about the billing service?");
    expect(runners.every((p) => p.includes(pidIn(server.child.pid!)))).toBe(true);
    expect(server.sessionPid).toBeNull();
  });
});

describe("smriti serve's session process, on demand (the default)", { timeout: 90_000 }, () => {
  const onDemand = (name: string, idleMs: number) =>
    serve(name, { SMRITI_SESSION_PROCESS: "", SMRITI_SESSION_IDLE_MS: String(idleMs) });

  it("starts with the first session request, runs the sessions, stops when idle and starts again when needed", async () => {
    const { server, call } = await onDemand("demand", 1_000);
    // A request without a valid token starts nothing (a scan of the session routes does not fork a second runtime).
    expect((await fetch(`${server.url}/chat/sessions`, { method: "POST", body: "{}" })).status).toBe(401);
    await sleep(300);
    expect(childPids(server.child.pid!)).toEqual([]);
    const created = await call(server.url, "/chat/sessions", {});
    expect(created.status).toBe(200);
    // Answered here while the session process starts: the client's next request comes through the front door to it.
    expect(created.headers.get("connection")).toBe("close");
    const first = Number(await untilLogged(server, SESSION_PROCESS_READY));
    expect(await runBy(call, server.url, "What do we know about the billing service?")).toEqual([
      expect.stringContaining(pidIn(first)),
    ]);

    await untilLogged(server, new RegExp(`session process ${first} stopped, idle`));
    for (let i = 0; i < 100 && processAlive(first); i++) await sleep(20);
    expect(processAlive(first)).toBe(false);
    expect(server.log()).not.toContain("session process exited");

    // Queued while none runs: the serving process wakes one for it, and that one runs it.
    const runners = await runBy(call, server.url, "What do we know about the reports job?");
    const second = server.sessionPid!;
    expect(second).not.toBe(first);
    expect(runners).toEqual([expect.stringContaining(pidIn(second))]);
  });

  it("starts one for a background session a CLI queued while none ran", async () => {
    const { server, call } = await onDemand("cli-queued", 60_000);
    const started = await runJsonHere<{ session: { session_id: string } }>(
      [
        "sessions",
        "start",
        "Who picked PostgreSQL?",
        "--approval-mode",
        "never",
        "--json",
        "--data",
        join(root, "cli-queued"),
      ],
      { env: cliEnv({ SMRITI_EMBEDDER: "none" }) },
    );
    await untilLogged(server, SESSION_PROCESS_READY);
    expect(await runnersOf(call, server.url, started.session.session_id, 30_000)).toEqual([
      expect.stringContaining(pidIn(server.sessionPid)),
    ]);
  });

  it("goes with a serving process killed -9 while it is still starting, before it takes up any session", async () => {
    const { server, call } = await onDemand("orphan", 60_000);
    expect((await call(server.url, "/chat/sessions", {})).status).toBe(200); // wakes it
    await sleep(200);
    const starting = childPids(server.child.pid!);
    expect(starting).toHaveLength(1);
    const opened = "[smriti sessions] indexes loaded"; // logged once its runtime (and supervisor) run
    expect(server.log()).not.toContain(opened);
    process.kill(server.child.pid!, "SIGKILL");
    for (let i = 0; i < 250 && starting.some(processAlive); i++) await sleep(20);
    expect(starting.filter(processAlive)).toEqual([]);
    // Its log still reaches this pipe: it stopped before opening its runtime, not after (a supervisor unwatched).
    expect(server.log()).not.toContain(opened);
  });

  it("loses no request while it leaves: each is answered by it, or by the serving process once it has gone", async () => {
    const { server, call, token } = await onDemand("leaving", 300);
    const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
    await untilLogged(server, SESSION_PROCESS_READY);
    const statuses: number[] = [];
    // Fresh connections at gaps just over the idle time (it looks every 75 ms), so some arrive as it says it leaves.
    for (let i = 0; i < 40; i++) {
      await sleep(300 + Math.random() * 150);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}/chat/sessions/${sid}`,
          { agent: false, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            res.resume().on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject).end();
      });
      statuses.push(status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(sessionPids(server.log()).length).toBeGreaterThan(1); // it left and came back
    expect(server.log()).not.toContain("session process exited");
  });
});
