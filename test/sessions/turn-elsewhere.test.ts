// A chat turn across two `smriti serve` processes on one data directory: the one running it holds the session's lease,
// so the other shows it running (not cut off), refuses a second turn with 409, takes the next message as soon as the
// turn ends, and ends the turn as interrupted only once its process is gone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseSse } from "../../src/client/sse.ts";
import { cliEnv, runJsonHere, startServe, type RunningServe } from "../cli/cli-helpers.ts";
import { callTools, openSse, say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { caller, createSession, dataOf, logOf, readSse, send } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-turn-elsewhere-"));
const servers: RunningServe[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(root, { recursive: true, force: true });
});

type Detail = { session: { status: string; last_error: string | null } };

describe("a chat turn running in another process", { timeout: 60_000 }, () => {
  it("is left running there, refuses a second turn, hands over when it ends, and is ended once its process dies", async () => {
    const wire = await startChatServer();
    try {
      const data = join(root, "data");
      const env = cliEnv({
        SMRITI_LLM_PROVIDER: "openai",
        SMRITI_LLM_BASE_URL: wire.base,
        SMRITI_SESSION_HEARTBEAT_MS: "250",
      });
      const { token } = await runJsonHere<{ token: string }>(["token", "create", "--json", "--data", data], { env });
      const call = caller(token);
      const [a, b] = [await startServe(data, env), await startServe(data, env)];
      servers.push(a, b);
      const sid = ((await (await call(a.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
      const logLength = async () =>
        (await readSse(await call(b.url, `/sessions/${sid}/events/stream?follow=false`))).length;

      // A finished turn on one process; the next message goes to the other at once and is taken.
      wire.script(say("First."));
      expect(
        (await readSse(await call(a.url, `/chat/sessions/${sid}/messages`, { message: "one" }))).at(-1)!.event,
      ).toBe("completed");
      wire.script(say("Second."));
      const second = await readSse(await call(b.url, `/chat/sessions/${sid}/messages`, { message: "two" }));
      expect(second.at(-1)!.event).toBe("completed");

      // A turn whose model never finishes, on A.
      wire.script((res) => openSse(res));
      const stream = await call(a.url, `/chat/sessions/${sid}/messages`, { message: "three" });
      for await (const e of parseSse(stream.body!)) if (e.event === "turn_start_tools") break;
      // Six heartbeats later (three make a lease stale) B still sees it running: A holds its lease and beats it.
      await new Promise((r) => setTimeout(r, 1_500));
      const seen = (await (await call(b.url, `/chat/sessions/${sid}`)).json()) as Detail;
      expect(seen.session).toMatchObject({ status: "running", last_error: null });
      const before = await logLength();
      const refused = await call(b.url, `/chat/sessions/${sid}/messages`, { message: "four" });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("turn_in_progress");
      expect(await logLength()).toBe(before); // nothing written

      await a.kill();
      const ended = (await (await call(b.url, `/chat/sessions/${sid}`)).json()) as Detail;
      expect(ended.session.status).toBe("idle");
      expect(ended.session.last_error).toMatch(/stopped during this turn/);
      const log = await readSse(await call(b.url, `/sessions/${sid}/events/stream?follow=false`));
      expect(log.filter((e) => e.event === "error").map((e) => (e.data as { code: string }).code)).toEqual([
        "turn_interrupted",
      ]);
      wire.script(say("Back again."));
      const next = await readSse(await call(b.url, `/chat/sessions/${sid}/messages`, { message: "four" }));
      expect(next.find((e) => e.event === "response")!.data).toMatchObject({ text: "Back again." });
    } finally {
      await wire.close();
    }
  });
});

describe("one approval decided on two processes at once", { timeout: 60_000 }, () => {
  it("is applied once: the later decision, made with the lease held, finds it settled", async () => {
    const data = join(root, "approvals");
    const env = cliEnv({ SMRITI_SESSION_HEARTBEAT_MS: "250" });
    const { token } = await runJsonHere<{ token: string }>(["token", "create", "--json", "--data", data], { env });
    const call = caller(token);
    const [a, b] = [await startServe(data, env), await startServe(data, env)];
    servers.push(a, b);
    for (let round = 0; round < 3; round++) {
      const sid = ((await (await call(a.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
      const asked = await readSse(
        await call(a.url, `/chat/sessions/${sid}/messages`, {
          message: `Remember that release ${round} ships on Friday.`,
        }),
      );
      const { request_id } = asked.find((e) => e.event === "approval_required")!.data as { request_id: string };
      const [onA, onB] = await Promise.all(
        [a, b].map((s) => call(s.url, `/chat/sessions/${sid}/approvals/${request_id}`, { decision: "approve" })),
      );
      const statuses = [onA!.status, onB!.status].sort();
      expect(statuses).toEqual([200, 409]);
      await Promise.all([onA!, onB!].map((r) => (r.status === 200 ? readSse(r) : r.json())));
      const log = await readSse(await call(b.url, `/sessions/${sid}/events/stream?follow=false`));
      expect(log.filter((e) => e.event === "approval_applied")).toHaveLength(1);
      expect(log.filter((e) => e.event === "tool_call")).toHaveLength(1);
    }
  });
});

describe("a chat turn whose lease another process took over", () => {
  let svc: TestService;
  let wire: ChatServer;
  afterEach(async () => {
    await svc.cleanup();
    await wire.close();
  });

  it("stops at its next step and writes nothing more: the process that took the lease ends it", async () => {
    wire = await startChatServer();
    svc = await startTestService({
      env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base, SMRITI_SESSION_HEARTBEAT_MS: "50" },
    });
    const sid = await createSession(svc);
    const key = { workspaceId: svc.workspaceId, sessionId: sid };
    // The model takes 1.5 s to ask for a tool; meanwhile another process claims the lease as if this one had stalled.
    const slowly = callTools({ name: "service_recall", args: '{"query":"anything"}' });
    wire.script((res, body, req) => void setTimeout(() => slowly(res, body, req), 1_500), say("never reached"));
    const turn = send(svc, sid, "hello");
    for (const until = Date.now() + 10_000; wire.requests.length === 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 10));
    // Every lease counts as stale, however recently this process beat it (a loaded machine beats between two lines).
    const now = Date.now();
    expect(await svc.runtime.store.sessions.claimSession(key, "elsewhere:1", now, now + 60_000)).toBe(true);
    const beating = setInterval(
      () => void svc.runtime.store.sessions.heartbeatSessions("elsewhere:1", [key], Date.now()),
      50,
    );
    await new Promise((r) => setTimeout(r, 2_000)); // the model answered meanwhile
    const logged = await logOf(svc, sid);
    expect(logged.some((e) => e.event === "tool_call" || e.event === "turn_end")).toBe(false);
    expect(wire.requests).toHaveLength(1);
    // The other process ends the turn (here: it lets go, and this one finds the turn running nowhere and ends it).
    clearInterval(beating);
    await svc.runtime.store.sessions.releaseSessions("elsewhere:1", [key]);
    expect(((await (await svc.get(`/chat/sessions/${sid}`)).json()) as Detail).session.last_error).toMatch(
      /stopped during this turn/,
    );
    const events = await turn;
    expect(dataOf(events, "turn_end").map((e) => e.status)).toEqual(["error"]);
    expect(events.at(-1)!.data).toMatchObject({ code: "turn_interrupted" });
  });
});
