// `smriti sessions` as an operator uses it: start a background session and wait for its answer, list, show, pause,
// resume and cancel against a running server; started in-process on --data, it waits queued until a server runs it.
// The first start is a child process (`smriti` as typed, waiting to its exit); the rest run in this one (runCliHere).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { cliEnv, runCli, runCliHere, runJsonHere, startServe, type RunningServe } from "./cli-helpers.ts";
import { catalogEnv } from "../helpers/catalog.ts";

describe("smriti sessions", () => {
  const dir = mkdtempSync(join(tmpdir(), "smriti-sessions-cli-"));
  const data = join(dir, "data");
  let server: RunningServe;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const note = join(dir, "storage.md");
    writeFileSync(note, "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n");
    await runJsonHere(["ingest", note, "--data", data, "--json"]);
    const rt = await createRuntime(loadConfig(cliEnv(), { data }), { embedder: null, log: () => {} });
    const token = (await rt.auth.issue({ workspace: "default", actors: [], scopes: ["read", "write", "execute"] }))
      .token;
    await rt.close();
    env = cliEnv({ SMRITI_TOKEN: token, SMRITI_SESSION_HEARTBEAT_MS: "100", ...catalogEnv() });
    server = await startServe(data, env);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts a session and waits for its answer, then lists and shows it", async () => {
    const res = await runCli(
      ["sessions", "start", "Who picked PostgreSQL?", "--approval-mode", "never", "--wait", "--url", server.url],
      { env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^ses_[0-9a-f-]{36} {2}completed {2}engine native {2}attempt 1\/3/);
    expect(res.stdout).toMatch(/artifact final_output: Alice\./);
    const sid = res.stdout.slice(0, 40);
    const list = await runCliHere(["sessions", "list", "--kind", "background", "--url", server.url], { env });
    expect(list.stdout).toMatch(
      new RegExp(`^${sid}\tbackground\tcompleted\t1\\.00\t[^\t]+\tWho picked PostgreSQL\\?$`, "m"),
    );
    const shown = await runJsonHere<{
      session: { status: string };
      health: { memory_provenance: { source_path: string }[] };
    }>(["sessions", "show", sid, "--json", "--url", server.url], { env });
    expect(shown.session.status).toBe("completed");
    expect(shown.health.memory_provenance[0]!.source_path).toMatch(/storage\.md$/);
  }, 60_000);

  it("pauses, resumes and cancels a bridged command", async () => {
    const started = await runJsonHere<{ session: { session_id: string } }>(
      [
        "sessions",
        "start",
        "t",
        "--engine",
        "command",
        "--command",
        "sleep 30",
        "--approval-mode",
        "never",
        "--json",
        "--url",
        server.url,
      ],
      { env },
    );
    const sid = started.session.session_id;
    const status = async () =>
      (
        await runJsonHere<{ session: { status: string } }>(["sessions", "show", sid, "--json", "--url", server.url], {
          env,
        })
      ).session.status;
    while ((await status()) !== "running") await new Promise((r) => setTimeout(r, 50));
    expect((await runCliHere(["sessions", "pause", sid, "--url", server.url], { env })).stdout).toMatch(/ paused /);
    const again = await runCliHere(["sessions", "pause", sid, "--url", server.url], { env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/invalid_transition: cannot pause a session that is paused/);
    expect((await runCliHere(["sessions", "resume", sid, "--url", server.url], { env })).stdout).toMatch(
      / (queued|running) /,
    );
    expect((await runCliHere(["sessions", "cancel", sid, "--url", server.url], { env })).stdout).toMatch(/ cancelled /);
  }, 60_000);

  it("queues a session started on --data; the server on that directory picks it up and runs it", async () => {
    const started = await runJsonHere<{ session: { session_id: string; status: string } }>(
      ["sessions", "start", "Who picked PostgreSQL?", "--approval-mode", "never", "--json", "--data", data],
      { env },
    );
    expect(started.session.status).toBe("queued");
    const until = Date.now() + 20_000;
    let status = "queued";
    while (status !== "completed" && Date.now() < until) {
      status = (
        await runJsonHere<{ session: { status: string } }>(
          ["sessions", "show", started.session.session_id, "--json", "--url", server.url],
          { env },
        )
      ).session.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe("completed");
  }, 60_000);
});
