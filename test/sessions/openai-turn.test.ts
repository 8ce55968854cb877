// Chat turns on the OpenAI-compatible provider against a local server speaking the streaming wire protocol: tool-call
// deltas, the conversation sent back with tool results, fallback to extractive when the stream fails, and the
// bounded repair loop for invalid tool arguments.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseSse } from "../../src/client/sse.ts";
import {
  callTools,
  data,
  delta,
  openSse,
  say,
  startChatServer,
  type ChatServer,
  type Script,
} from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { CLOSING, collapseTokens, createSession, dataOf, OPENING, send, TOOL_RUN, types } from "./support.ts";

const NOTE = "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n";

describe("chat turns on an OpenAI-compatible server", () => {
  let wire: ChatServer;
  let svc: TestService;
  beforeAll(async () => {
    wire = await startChatServer();
    svc = await startTestService({
      env: {
        SMRITI_LLM_PROVIDER: "openai",
        SMRITI_LLM_BASE_URL: wire.base,
        SMRITI_LLM_MODEL: "wire-model",
        SMRITI_LLM_TIMEOUT_MS: "400",
      },
    });
    await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE });
  });
  afterAll(async () => {
    await svc.cleanup();
    await wire.close();
  });
  beforeEach(() => void wire.requests.splice(0));

  it("runs the tool the model asks for (from split deltas), sends its result back, and streams the answer", async () => {
    wire.script(
      callTools({ name: "service_recall", args: '{"query":"who picked postgres","k":3}' }),
      say("Alice ", "picked PostgreSQL."),
    );
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL?");
    expect(collapseTokens(types(events))).toEqual(["session", ...OPENING, ...TOOL_RUN, "token", ...CLOSING]);
    const call = dataOf<{ tool_call_id: string; arguments: Record<string, unknown> }>(events, "tool_call")[0]!;
    expect(call.arguments).toMatchObject({ query: "who picked postgres", k: 3, _tool_call_id: call.tool_call_id });
    expect(dataOf(events, "response")[0]).toMatchObject({ text: "Alice picked PostgreSQL." });
    expect(dataOf(events, "response")[0]!.citations).toHaveLength(1); // the recall hit
    expect(dataOf(events, "usage")[0]).toMatchObject({ input_tokens: 50, output_tokens: 12, cost_usd: null });
    expect(dataOf(events, "session_state")[0]).toMatchObject({ provider: "openai", model: "wire-model" });
    // The model was offered the tools and got the result back under the same call id.
    expect(wire.requests[0]!.tools!.map((t) => t.function.name)).toContain("service_recall");
    const second = wire.requests[1]!.messages;
    expect(second.find((m) => m.role === "assistant" && m.tool_calls)?.tool_calls?.[0]).toMatchObject({
      id: call.tool_call_id,
      function: { name: "service_recall" },
    });
    const toolMessage = second.find((m) => m.role === "tool")!;
    expect(toolMessage.tool_call_id).toBe(call.tool_call_id);
    expect(JSON.parse(toolMessage.content)).toMatchObject({ status: "ok", hits: [{ source_path: "storage.md" }] });
    expect(wire.requests[0]!.model).toBe("wire-model");
  });

  it("streams each delta to the client while the model is still writing (deltas are not held for the reply's end)", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    wire.script(async (res) => {
      openSse(res);
      data(res, delta({ content: "Alice " }));
      await held; // the rest only once the client has the first delta
      for (const piece of ["picked ", "PostgreSQL."]) data(res, delta({ content: piece }));
      data(res, delta({}, "stop"));
      data(res, "[DONE]");
      res.end();
    });
    const sid = await createSession(svc);
    const stream = await svc.post(`/chat/sessions/${sid}/messages`, { message: "Who picked PostgreSQL?" });
    const tokens: string[] = [];
    for await (const e of parseSse(stream.body!)) {
      if (e.event === "token") tokens.push((e.data as { text: string }).text);
      if (tokens.length === 1) release();
    }
    expect(tokens).toEqual(["Alice ", "picked ", "PostgreSQL."]);
  });

  it("falls back to extractive when the stream is cut mid-way, and says so in transport_diagnostic", async () => {
    wire.script((res) => {
      openSse(res);
      data(res, delta({ content: "Let me" }));
      setTimeout(() => res.destroy(), 20);
    });
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL?");
    const at = types(events).indexOf("transport_diagnostic");
    expect(types(events).slice(at - 1, at + 3)).toEqual([
      "token",
      "transport_diagnostic",
      "thinking",
      "policy_decision",
    ]);
    expect(dataOf(events, "transport_diagnostic")[0]).toEqual({
      status: "fallback",
      kind: "cut",
      provider_requested: "openai",
      provider_actual: "extractive",
      reason: expect.stringMatching(/^openai: /),
      failure_count: 1,
    });
    expect(dataOf(events, "response")[0]!.text).toMatch(/^Alice\./);
    expect(types(events).at(-1)).toBe("completed");
  });

  it("falls back on a 500, a 429 and a silent server (timeout), counting the failures of the turn", async () => {
    const refuse = (status: number) => (res: import("node:http").ServerResponse) =>
      res.writeHead(status, { "content-type": "application/json" }).end('{"error":{"message":"no"}}');
    for (const [script, kind] of [
      [refuse(500), "server"],
      [refuse(429), "rate_limited"],
      [(res: import("node:http").ServerResponse) => void openSse(res), "timeout"],
    ] as const) {
      wire.script(script);
      const sid = await createSession(svc);
      const events = await send(svc, sid, "Who picked PostgreSQL?");
      // Each step of the turn (plan; answer and pack; end) goes to openai first and falls back; the count is the turn's.
      expect(dataOf(events, "transport_diagnostic").map((d) => [d.kind, d.failure_count])).toEqual([
        [kind, 1],
        [kind, 2],
        [kind, 3],
      ]);
      expect(types(events).at(-1)).toBe("completed");
    }
  });

  it("sends invalid tool arguments back for repair, then runs the repaired call", async () => {
    wire.script(
      callTools({ name: "service_recall", args: '{"q":1}' }),
      callTools({ name: "service_recall", args: '{"query":"postgres"}' }),
      say("Found it."),
    );
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL?");
    const invalid = dataOf<{ tool_call_id: string; attempt: number; issues: { message: string }[]; arguments: string }>(
      events,
      "tool_validation_error",
    );
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({ tool_name: "service_recall", attempt: 1, arguments: '{"q":1}' });
    expect(dataOf(events, "tool_outcome")).toHaveLength(1);
    const repair = wire.requests[1]!.messages.find((m) => m.role === "tool")!;
    expect(repair.tool_call_id).toBe(invalid[0]!.tool_call_id);
    expect(JSON.parse(repair.content)).toMatchObject({ status: "invalid_arguments" });
    expect(types(events).at(-1)).toBe("completed");
  });

  it("gives up after the repair budget with a turn error, and the session takes the next message", async () => {
    wire.script(callTools({ name: "service_recall", args: "not json" }));
    const sid = await createSession(svc);
    const events = await send(svc, sid, "Who picked PostgreSQL?");
    expect(dataOf(events, "tool_validation_error").map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(types(events).slice(-3)).toEqual(["turn_end", "session_state", "error"]);
    expect(dataOf(events, "error")[0]).toMatchObject({ code: "invalid_request" });
    expect(dataOf(events, "session_state").at(-1)).toMatchObject({
      status: "idle",
      last_error: expect.stringContaining("repairs"),
    });
    wire.script(say("Hello again."));
    const next = await send(svc, sid, "hello");
    expect(types(next).at(-1)).toBe("completed");
    expect(dataOf(next, "session_state").map((s) => s.last_error)).toEqual([null, null]); // the old error is not carried on
  });

  it("names in its cognition event the layers its own calls fired, not those of another caller meanwhile", async () => {
    const totals = async () =>
      (await svc.runtime.cognitive.pipeline.counters.totals({ workspaceId: svc.workspaceId })).reduce(
        (n, t) => n + t.n,
        0,
      );
    const before = await totals();
    // While the model "thinks", another client of the workspace asks for a grounded answer; the turn calls no tool.
    const aside: Script = (res, body, req) =>
      void svc.post("/v1/grounded/answer", { question: "Who picked PostgreSQL?" }).then((r) => {
        expect(r.status).toBe(200);
        say("Nothing to look up.")(res, body, req);
      });
    wire.script(aside);
    const sid = await createSession(svc);
    const quiet = await send(svc, sid, "Just say something.");
    expect(await totals()).toBeGreaterThan(before); // the other caller's layers did fire during the turn
    expect(dataOf(quiet, "cognition")[0]).toMatchObject({ layers: [], guardrails: [] });
    // A turn that recalls names what its recall fired.
    wire.script(callTools({ name: "service_recall", args: '{"query":"who picked postgres"}' }), say("Alice."));
    const recalled = await send(svc, sid, "Who picked PostgreSQL?");
    expect(dataOf<{ layers: string[] }>(recalled, "cognition")[0]!.layers.length).toBeGreaterThan(0);
  });
});

describe("a model's configured price", () => {
  it("prices usage and each background step (the cost budget then trips on it)", async () => {
    const wire = await startChatServer();
    const env = {
      SMRITI_LLM_PROVIDER: "openai",
      SMRITI_LLM_BASE_URL: wire.base,
      SMRITI_LLM_USD_PER_MTOK_IN: "2",
      SMRITI_LLM_USD_PER_MTOK_OUT: "8",
      SMRITI_SESSION_HEARTBEAT_MS: "100",
    };
    const svc = await startTestService({ env });
    try {
      wire.script(say("Hello."));
      const events = await send(svc, await createSession(svc), "hi");
      const usage = dataOf<{ input_tokens: number; output_tokens: number; cost_usd: number }>(events, "usage")[0]!;
      expect(usage.input_tokens).toBeGreaterThan(0);
      expect(usage.cost_usd).toBeCloseTo((usage.input_tokens * 2 + usage.output_tokens * 8) / 1e6, 12);
      wire.script(callTools({ name: "service_recall", args: '{"query":"anything"}' }), say("Done."));
      const res = await svc.post("/sessions", {
        task: "look it up",
        approval_mode: "never",
        metadata: { policy: { health: { action: "pause", max_cost_usd: 0.0001 } } },
      });
      const sid = ((await res.json()) as { session: { session_id: string } }).session.session_id;
      let detail: { session: { status: string }; checkpoints: { checkpoint_type: string; budgets?: string[] }[] };
      do detail = (await (await svc.get(`/sessions/${sid}`)).json()) as typeof detail;
      while (
        !["paused", "completed", "failed"].includes(detail.session.status) &&
        (await new Promise((r) => setTimeout(r, 20))) === undefined
      );
      expect(detail.session.status).toBe("paused");
      expect(detail.checkpoints[0]).toMatchObject({ checkpoint_type: "health_pause", budgets: ["max_cost_usd"] });
    } finally {
      await svc.cleanup();
      await wire.close();
    }
  });
});
