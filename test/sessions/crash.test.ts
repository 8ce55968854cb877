// kill -9 of the service in the middle of a turn: the log stays readable, and on restart the turn ends with `error`
// (turn_interrupted) and the session takes the next message.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";
import { loadConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/main.ts";
import { cliEnv, startServe } from "../cli/cli-helpers.ts";
import { openSse, say, startChatServer } from "../helpers/chat-server.ts";
import { caller, readSse } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "smriti-session-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a chat turn cut by kill -9", () => {
  it("is ended as an error on restart, and the session goes on", async () => {
    const wire = await startChatServer();
    const dataDir = join(root, "data");
    const env = cliEnv({ SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base });
    const setup = await createRuntime(loadConfig(env, { data: dataDir }), { embedder: null, log: () => {} });
    const token = (await setup.auth.issue({ workspace: "default", actors: [] })).token;
    await setup.close();
    const call = caller(token);
    try {
      let server = await startServe(dataDir, env);
      const sid = ((await (await call(server.url, "/chat/sessions", {})).json()) as { session_id: string }).session_id;
      wire.script((res) => openSse(res)); // the model starts answering and never finishes
      const seen: SseEvent[] = [];
      const stream = await call(server.url, `/chat/sessions/${sid}/messages`, { message: "hello" });
      for await (const e of parseSse(stream.body!)) {
        seen.push(e);
        if (e.event === "turn_start_tools") break;
      }
      await server.kill();

      server = await startServe(dataDir, env);
      try {
        const detail = (await (await call(server.url, `/chat/sessions/${sid}`)).json()) as {
          session: { status: string; last_error: string };
        };
        expect(detail.session.status).toBe("idle");
        expect(detail.session.last_error).toMatch(/stopped during this turn/);
        const log = await readSse(await call(server.url, `/sessions/${sid}/events/stream?follow=false`));
        // Everything streamed before the kill is in the log, then the turn's end.
        expect(log.slice(1, seen.length).map((e) => e.id)).toEqual(seen.slice(1).map((e) => e.id)); // log[0]: the state at creation
        expect(log.slice(-3).map((e) => e.event)).toEqual(["turn_end", "session_state", "error"]);
        expect(log.at(-1)!.data).toMatchObject({ code: "turn_interrupted" });
        wire.script(say("Back again."));
        const next = await readSse(
          await call(server.url, `/chat/sessions/${sid}/messages`, { message: "are you there?" }),
        );
        expect(next.at(-1)!.event).toBe("completed");
        expect(next.find((e) => e.event === "response")!.data).toMatchObject({ text: "Back again." });
      } finally {
        await server.stop();
      }
    } finally {
      await wire.close();
    }
  }, 60_000);
});
