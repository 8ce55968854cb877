// Five crashes of PostgreSQL (`pg_ctl stop -m immediate`, then start) while two replicas, each with its session process,
// serve ingests, recalls, chat turns and background runs (issue 39, item 6): no process dies, every request is answered
// or refused with 503 store_unavailable and Retry-After, every turn's stream ends with its end or an `error` event, and
// afterwards every acknowledged write and event is in the database once and every cut session reaches an end or a
// resumable state. A cluster of its own: the shared one is not restarted under the other tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cliEnv,
  processAlive,
  runCli,
  runJson,
  SESSION_PROCESS_READY,
  startServe,
  untilLogged,
  type RunningServe,
} from "../cli/cli-helpers.ts";
import { postgresBinDir, startTestCluster, type TestCluster } from "../helpers/postgres-cluster.ts";
import { call, json, sseOf, restartCycles, startLoad, type Target } from "./restart-load.ts";

const RESTARTS = 5;
const root = mkdtempSync(join(tmpdir(), "smriti-pg-restarts-"));

describe("PostgreSQL restarting under load", { timeout: 300_000 }, () => {
  let cluster: TestCluster;
  let env: NodeJS.ProcessEnv;
  let token: string;
  const replicas: RunningServe[] = [];
  const sessionPids: number[] = [];

  beforeAll(async () => {
    // Durable commits: an immediate stop loses what synchronous_commit=off had acknowledged, the server's doing, not ours.
    cluster = await startTestCluster(postgresBinDir()!, { durable: true });
    // Beats of 1 s (stale after 3 s): a run cut by a restart is taken up again soon after the database is back.
    env = cliEnv({
      SMRITI_DATABASE_URL: cluster.url,
      SMRITI_SESSION_PROCESS: "1",
      SMRITI_SESSION_HEARTBEAT_MS: "1000",
    });
    token = (await runJson<{ token: string }>(["token", "create", "--json", "--data", join(root, "r0")], { env }))
      .token;
    for (const i of [0, 1]) {
      const r = await startServe(join(root, `r${i}`), env);
      replicas.push(r);
      sessionPids.push(Number(await untilLogged(r, SESSION_PROCESS_READY)));
    }
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("keeps every process up, answers 503 while it is down, and loses or repeats nothing it acknowledged", async () => {
    const targets: Target[] = replicas.map((r) => ({ url: r.url, token }));
    const { load, stop } = startLoad(targets);
    await restartCycles(cluster, RESTARTS);
    await stop();
    const logs = replicas.map((r) => r.log()).join("\n");

    // Every process still runs, the session processes being the ones started first.
    replicas.forEach((r, i) => {
      expect(r.child.exitCode, logs).toBeNull();
      expect(processAlive(sessionPids[i]!), logs).toBe(true);
    });
    expect(logs).not.toContain("session process exited");
    // Every request was answered, or refused with 503 store_unavailable and Retry-After; none was cut.
    const lost = [...load.ingests.lost, ...load.recalls.lost, ...load.turns.lost, ...load.runs.lost];
    console.log(
      `[restarts] ${RESTARTS} restarts; acked/503/lost: ingests ${load.ingests.acked}/${load.ingests.unavailable}/${load.ingests.lost.length}, recalls ${load.recalls.acked}/${load.recalls.unavailable}/${load.recalls.lost.length}, turns ${load.turns.acked}/${load.turns.unavailable}/${load.turns.lost.length} (${load.turns.errorEnds} ended with error), runs ${load.runs.acked}/${load.runs.unavailable}/${load.runs.lost.length}`,
    );
    expect(lost).toEqual([]);
    expect(load.ingests.unavailable + load.recalls.unavailable).toBeGreaterThan(0); // the outages were seen

    const db = new pg.Client(cluster.url);
    await db.connect();
    try {
      // Each acknowledged ingest: its document, and its audit event once.
      const docs = new Set(
        (await db.query<{ source_path: string }>("SELECT source_path FROM documents")).rows.map((r) => r.source_path),
      );
      for (const path of load.ingests.paths) expect(docs.has(path), path).toBe(true);
      const counts = await db.query<{ path: string; n: number }>(
        "SELECT p.path, count(e.*)::int AS n FROM unnest($1::text[]) AS p(path) LEFT JOIN events e ON e.type = 'memory.ingest' AND e.payload LIKE '%\"' || p.path || '\"%' GROUP BY p.path",
        [load.ingests.paths],
      );
      expect(counts.rows.filter((r) => r.n !== 1)).toEqual([]);
    } finally {
      await db.end();
    }
    // Each chat session: every event its client saw is in its log; no turn is left open; it takes the next message.
    const t = targets[0]!;
    const logOf = async (sid: string) => sseOf(await call(t, `/sessions/${sid}/events/stream?follow=false`));
    const logged = new Map<string, string>();
    for (const sid of load.turns.sessions) {
      // Reading the session ends a turn a restart cut (turn_interrupted), once no live process holds its lease: a release
      // the outage refused lapses three beats later.
      let status = "running";
      for (const deadline = Date.now() + 30_000; status === "running" && Date.now() < deadline; await sleep(250))
        status = (await json<{ session: { status: string } }>(await call(t, `/chat/sessions/${sid}`))).session.status;
      expect(status, sid).not.toBe("running");
      const events = await logOf(sid);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      for (const e of events) logged.set(e.id!, e.event!);
      expect(
        events.filter((e) => e.event === "turn_start").length,
        `${sid} ${status}: ${events.map((e) => e.event).join(",")}`,
      ).toBe(events.filter((e) => e.event === "turn_end").length);
    }
    for (const e of load.turns.seen) expect(logged.get(e.id!), e.id).toBe(e.event);

    // Each background run ends (completed or failed) once, not stuck and not run twice to its end.
    const ended = new Set(["completed", "failed", "cancelled"]);
    let recovered = 0;
    for (const sid of load.runs.sessions) {
      let status = "";
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && !ended.has(status); await sleep(200))
        status = (await json<{ session: { status: string } }>(await call(t, `/sessions/${sid}`))).session.status;
      expect(status, sid).toMatch(/^(completed|failed|cancelled)$/);
      const states = (await logOf(sid))
        .filter((e) => e.event === "session_state")
        .map((e) => (e.data as { status: string }).status);
      expect(
        states.filter((s) => ended.has(s)),
        sid,
      ).toHaveLength(1);
      if (states.includes("recovering")) recovered++;
    }
    // The audit chain, once nothing writes any more (runs recovering after the load still append their answers' events).
    const verify = await runCli(["audit", "verify", "--json", "--data", join(root, "r0")], { env });
    expect(verify.code, `${verify.stderr}${verify.stdout}`).toBe(0);
    expect((JSON.parse(verify.stdout) as { break: unknown }[]).every((w) => w.break === null)).toBe(true);

    console.log(
      `[restarts] background runs: ${load.runs.sessions.length} ended, ${recovered} of them through recovering`,
    );
  });
});
