// Background sessions kept off the process that answers recalls: `smriti serve` with SMRITI_BACKGROUND_SESSIONS=0
// queues a session it is sent and runs none; a second `smriti serve` on the same data directory runs it, and the
// first serves its stream and its state to the end.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliEnv, runJsonHere, startServe, type RunningServe } from "../cli/cli-helpers.ts";
import { caller, readSse } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-bg-elsewhere-"));
const servers: RunningServe[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(root, { recursive: true, force: true });
});

type State = { status: string; process_id?: string | null };

describe("SMRITI_BACKGROUND_SESSIONS=0", { timeout: 120_000 }, () => {
  it("queues what it is sent and runs none; another process on the store runs it, and the first streams it", async () => {
    const data = join(root, "data");
    const env = cliEnv({ SMRITI_SESSION_HEARTBEAT_MS: "100" });
    const { token } = await runJsonHere<{ token: string }>(["token", "create", "--json", "--data", data], { env });
    const call = caller(token);

    const front = await startServe(data, { ...env, SMRITI_BACKGROUND_SESSIONS: "0" });
    servers.push(front);
    expect(front.log()).toContain("background sessions: queued here");
    const created = await call(front.url, "/sessions", {
      task: "What do we know about the reports job?",
      approval_mode: "never",
    });
    expect(created.status).toBe(200);
    const sid = ((await created.json()) as { session: { session_id: string } }).session.session_id;

    // Ten heartbeats (three make a queued session stale for a supervisor): still queued, nobody runs it.
    await new Promise((r) => setTimeout(r, 1_000));
    const waiting = (await (await call(front.url, `/sessions/${sid}`)).json()) as { session: State };
    expect(waiting.session.status).toBe("queued");

    const runner = await startServe(data, env);
    servers.push(runner);
    // The front process reports the run the other one does, to its end, and serves its whole log.
    const statusOnFront = async () =>
      ((await (await call(front.url, `/sessions/${sid}`)).json()) as { session: State }).session.status;
    for (const until = Date.now() + 80_000; (await statusOnFront()) !== "completed" && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 100));
    expect(await statusOnFront()).toBe("completed");
    const events = await readSse(await call(front.url, `/sessions/${sid}/events/stream?follow=false`));
    const states = events.filter((e) => e.event === "session_state").map((e) => e.data as State);
    expect(states.at(-1)?.status).toBe("completed");
    const running = states.filter((s) => s.status === "running");
    expect(running.length).toBeGreaterThan(0);
    // The runner's session process, started for the session it found waiting (the front's, started by the reads, runs none).
    expect(runner.sessionPid).not.toBeNull();
    expect(running.every((s) => s.process_id?.includes(`:${runner.sessionPid}:`))).toBe(true);
    expect(events.some((e) => e.event === "response")).toBe(true);
  });
});
