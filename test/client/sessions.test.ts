// The client's session calls against a real server: a turn as typed events, an approval decided, a branch, and a
// stream that drops mid-turn and resumes by itself with Last-Event-ID (every event once).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, SmritiError, type SessionEvent, type SmritiClient } from "../../src/client/index.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const collect = async (events: AsyncIterable<SessionEvent>) => {
  const out: SessionEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

/** A fetch whose first `drops` stream responses break after `after` SSE events, as a flaky network would. */
function flakyFetch(after: number, drops: number): { fetch: typeof fetch; resumedWith: string[] } {
  const resumedWith: string[] = [];
  let left = drops;
  const flaky: typeof fetch = async (input, init) => {
    const last = new Headers(init?.headers).get("last-event-id");
    if (last) resumedWith.push(last);
    const res = await fetch(input, init);
    if (!res.headers.get("content-type")?.startsWith("text/event-stream") || left-- <= 0) return res;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let [buffer, sent] = ["", 0];
    // One SSE block per pull, so the break falls between events, after `after` of them.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= after) {
          await reader.cancel();
          return controller.error(new TypeError("network connection lost"));
        }
        while (!buffer.includes("\n\n")) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          buffer += decoder.decode(value, { stream: true });
        }
        const end = buffer.indexOf("\n\n") + 2;
        controller.enqueue(new TextEncoder().encode(buffer.slice(0, end)));
        [buffer, sent] = [buffer.slice(end), sent + 1];
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  return { fetch: flaky, resumedWith };
}

describe("client sessions", () => {
  let svc: TestService;
  let server: RunningServer;
  let client: SmritiClient;
  beforeAll(async () => {
    svc = await startTestService();
    server = await listen(svc.app, "127.0.0.1", 0);
    client = createClient({ baseUrl: server.url, token: svc.token });
    await client.ingest({
      source_path: "storage.md",
      content: "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n",
    });
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
  });

  it("runs a turn, decides an approval, reads the detail and branches", async () => {
    const state = await client.createChatSession({ approval_mode: "on-write" });
    const turn = await collect(client.sendMessage(state.session_id, "Who picked PostgreSQL?"));
    expect(turn[0]!.event).toBe("session");
    const response = turn.find((e) => e.event === "response");
    expect(response?.event === "response" && response.data.text).toMatch(/^Alice/);
    const paused = await collect(client.sendMessage(state.session_id, "Remember that the lab opens at nine."));
    const ask = paused.find((e) => e.event === "approval_required");
    if (ask?.event !== "approval_required") throw new Error("no approval asked");
    const rest = await collect(client.decideApproval(state.session_id, ask.data.request_id, "approve"));
    expect(rest.at(-1)!.event).toBe("completed");
    const detail = await client.getChatSession(state.session_id);
    expect(detail.turns).toBe(2);
    const branch = await client.branchChatSession(state.session_id, {
      resume_cursor: detail.resume_points[0]!.resume_cursor,
    });
    expect(branch.session.parent_session_id).toBe(state.session_id);
    const all = await collect(client.sessionEvents(state.session_id, { follow: false }));
    expect(all.at(-1)!.id).toBe(detail.last_event_id);
    await expect(client.getChatSession("ses_00000000-0000-0000-0000-000000000000")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
    });
    await expect(collect(client.sendMessage(state.session_id, ""))).rejects.toBeInstanceOf(SmritiError);
  });

  it("resumes a dropped turn stream by itself: every event once, in order", async () => {
    const flaky = flakyFetch(6, 3);
    const resilient = createClient({ baseUrl: server.url, token: svc.token, fetch: flaky.fetch });
    const { session_id } = await resilient.createChatSession();
    const events = await collect(resilient.sendMessage(session_id, "Who picked PostgreSQL?"));
    expect(flaky.resumedWith.length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)!.event).toBe("completed");
    const log = await collect(client.sessionEvents(session_id, { follow: false }));
    expect(events.slice(1).map((e) => e.id)).toEqual(log.slice(1).map((e) => e.id)); // log[0] is the state at creation
  });
});
