// kill -9 of the service at 10 random points of background runs, restarting each time: every session ends completed or
// failed by the rules, attempt_count matches its runs, no event a client saw is lost or changed, nothing is logged twice,
// and no tool call that had a terminal outcome runs again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { cliEnv, startServe, type RunningServe } from "../cli/cli-helpers.ts";
import { catalogEnv } from "../helpers/catalog.ts";
import { prng } from "../helpers/prng.ts";
import { NOTE } from "./background-support.ts";
import { readSse } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-bg-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TRIALS = 10;

/** A token of the data directory's default workspace, and a fetch of a server's route with it. */
async function caller(dataDir: string, env: NodeJS.ProcessEnv) {
  const setup = await createRuntime(loadConfig(env, { data: dataDir }), { embedder: null, log: () => {} });
  const token = (await setup.auth.issue({ workspace: "default", actors: [], scopes: ["read", "write", "execute"] }))
    .token;
  await setup.close();
  return (url: string, path: string, body?: object) =>
    fetch(`${url}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
}
const TASKS = [
  "Who picked PostgreSQL?",
  "Remember that the reports job moves to Tuesday.",
  "What is still to do? Who picked PostgreSQL?",
];
type Data = Record<string, unknown>;

describe("background runs cut by kill -9", () => {
  it("end completed or failed by the rules, with nothing lost, duplicated or run twice", async () => {
    const dataDir = join(root, "data");
    // The session process from the start (not on demand, where the first kills would fall while it is still starting):
    // each kill is to fall during a run.
    const env = cliEnv({ SMRITI_SESSION_HEARTBEAT_MS: "100", SMRITI_SESSION_PROCESS: "1", ...catalogEnv() });
    const call = await caller(dataDir, env);
    const rand = prng(14);
    const sessions: string[] = [];
    const seen = new Map<string, SseEvent>(); // every event a client received before a kill, by id
    let server: RunningServe = await startServe(dataDir, env);
    expect((await call(server.url, "/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(
      200,
    );
    for (let trial = 0; trial < TRIALS; trial++) {
      const res = await call(server.url, "/sessions", { task: TASKS[trial % TASKS.length], approval_mode: "never" });
      expect(res.status).toBe(200);
      const sid = ((await res.json()) as { session: { session_id: string } }).session.session_id;
      sessions.push(sid);
      // Follow the stream while the run goes on, then kill the service at a random moment.
      const follow = new AbortController();
      const reading = (async () => {
        const stream = await call(server.url, `/sessions/${sid}/events/stream`).catch(() => null);
        if (!stream?.body) return;
        try {
          for await (const e of parseSse(stream.body)) seen.set(e.id!, e);
        } catch {
          // the server died under the stream
        }
      })();
      await new Promise((r) => setTimeout(r, rand.int(0, 250)));
      await server.kill();
      follow.abort();
      await reading;
      server = await startServe(dataDir, env);
    }
    try {
      for (const sid of sessions) {
        const until = Date.now() + 60_000;
        let status = "";
        while (!["completed", "failed"].includes(status) && Date.now() < until) {
          status = ((await (await call(server.url, `/sessions/${sid}`)).json()) as { session: { status: string } })
            .session.status;
          if (!["completed", "failed"].includes(status)) await new Promise((r) => setTimeout(r, 50));
        }
        const detail = (await (await call(server.url, `/sessions/${sid}`)).json()) as {
          session: { status: string; attempt_count: number; max_retries: number; last_error: string | null };
        };
        const log = await readSse(await call(server.url, `/sessions/${sid}/events/stream?follow=false`));
        const { session } = detail;
        expect(["completed", "failed"], `${sid} ended`).toContain(session.status);
        // Every run left a run record; attempt_count counts them.
        const runs = log.filter(
          (e) => e.event === "session_checkpoint" && (e.data as Data).checkpoint_type === "run_record",
        );
        expect(session.attempt_count, `${sid} attempts`).toBe(runs.length);
        if (session.status === "failed") {
          expect(session.attempt_count).toBeGreaterThan(session.max_retries);
          expect(session.last_error).toMatch(/no retries left/);
        } else expect(session.attempt_count).toBeLessThanOrEqual(session.max_retries + 1);
        // The log numbers its events 1..n, and ends once.
        expect(log.map((e) => Number(e.id!.split("/")[1]))).toEqual(log.map((_, i) => i + 1));
        expect(log.filter((e) => e.event === "completed" || e.event === "error")).toHaveLength(1);
        // A call whose earlier twin had a terminal outcome never runs again (a call cut before its outcome may).
        const outcome = new Map(
          log
            .filter((e) => e.event === "tool_outcome")
            .map((e) => [(e.data as Data).tool_call_id, (e.data as Data).status]),
        );
        const done = new Set<string>();
        for (const e of log.filter((x) => x.event === "tool_call")) {
          const d = e.data as { name: string; arguments: Data; tool_call_id: string };
          const { _tool_call_id: _, ...args } = d.arguments;
          const key = `${d.name} ${JSON.stringify(args)}`;
          expect(done.has(key), `${sid}: ${key} ran again after its outcome`).toBe(false);
          if (outcome.has(d.tool_call_id)) done.add(key);
        }
      }
      // Everything a client was sent before a kill is in the log, unchanged.
      for (const [id, e] of seen) {
        const [sid] = id.split("/");
        const log = await readSse(await call(server.url, `/sessions/${sid}/events/stream?follow=false`));
        expect(
          log.find((x) => x.id === id),
          id,
        ).toMatchObject({ event: e.event, data: e.data });
      }
      expect(seen.size).toBeGreaterThan(TRIALS);
    } finally {
      await server.stop();
    }
    // Eleven starts of a server and its session process: about a minute on a quiet machine, three on a loaded one.
  }, 600_000);
});

describe("a run whose heartbeat stops", () => {
  it("is recovered by another service process on the same data once its heartbeat is stale", async () => {
    const dataDir = join(root, "two");
    // Sessions in the serving processes (no session process): the run must start in `runner`, the one killed.
    const env = cliEnv({ SMRITI_SESSION_HEARTBEAT_MS: "100", SMRITI_SESSION_PROCESS: "0", ...catalogEnv() });
    const call = await caller(dataDir, env);
    const watcher = await startServe(dataDir, env); // idle: nothing to recover when it starts
    const runner = await startServe(dataDir, env);
    try {
      const res = await call(runner.url, "/sessions", {
        task: "t",
        engine: "command",
        command: ["sh", "-c", "sleep 30"],
        approval_mode: "never",
      });
      const sid = ((await res.json()) as { session: { session_id: string } }).session.session_id;
      const detail = async () =>
        (await (await call(watcher.url, `/sessions/${sid}`)).json()) as {
          session: { status: string; process_id: string; attempt_count: number };
        };
      let d = await detail();
      while (d.session.status !== "running") d = await (await new Promise((r) => setTimeout(r, 20)), detail());
      const first = d.session.process_id;
      await runner.kill(); // its heartbeat stops; no restart of it
      const until = Date.now() + 10_000;
      while ((d.session.process_id === first || d.session.status !== "running") && Date.now() < until)
        d = await (await new Promise((r) => setTimeout(r, 50)), detail());
      expect(d.session).toMatchObject({ status: "running", attempt_count: 2 });
      expect(d.session.process_id).not.toBe(first);
      const log = await readSse(await call(watcher.url, `/sessions/${sid}/events/stream?follow=false`));
      expect(log.filter((e) => e.event === "session_state").map((e) => (e.data as Data).status)).toEqual([
        "queued",
        "running",
        "recovering",
        "running",
      ]);
      expect((await call(watcher.url, `/sessions/${sid}/cancel`, {})).status).toBe(200);
    } finally {
      await watcher.stop();
      await runner.stop();
    }
  }, 60_000);
});
