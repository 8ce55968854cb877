// POST /agui driven by @ag-ui/client's HttpAgent against a real server, the model an OpenAI-wire double: a turn with a
// tool call, text and citations; an approval interrupt answered on the next run; a second run on the thread; a wrong
// token; a run cut mid-answer and run again.
import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mountAgui } from "../../src/transports/agui/mount.ts";
import { createHttpApp } from "../../src/transports/http/app.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import type { AgentState } from "../../src/transports/agui/agent-state.ts";
import { callTools, data, delta, openSse, say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { dataOf, logOf } from "../sessions/support.ts";

const NOTE = "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n";

describe("AG-UI at POST /agui", () => {
  let wire: ChatServer;
  let svc: TestService;
  let server: RunningServer;
  beforeAll(async () => {
    wire = await startChatServer();
    svc = await startTestService({
      env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base, SMRITI_LLM_MODEL: "wire-model" },
    });
    await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE });
    server = await listen(
      createHttpApp(svc.runtime, (a) => mountAgui(a, svc.runtime)),
      "127.0.0.1",
      0,
    );
  });
  afterAll(async () => {
    await server.close();
    await svc.cleanup();
    await wire.close();
  });
  beforeEach(() => void wire.requests.splice(0));

  const agent = (token = svc.token, threadId = `thread-${randomUUID()}`) =>
    new HttpAgent({ url: `${server.url}/agui`, headers: { authorization: `Bearer ${token}` }, threadId });
  /** One run; every event it got, each checked against @ag-ui/core's schema. */
  async function run(a: HttpAgent, message?: string, resume?: Parameters<HttpAgent["runAgent"]>[0]) {
    if (message) a.addMessage({ id: randomUUID(), role: "user", content: message });
    const events: BaseEvent[] = [];
    await a.runAgent(resume ?? {}, { onEvent: ({ event }) => void events.push(event) });
    for (const e of events) expect(() => EventSchema.parse(e), e.type).not.toThrow();
    return events;
  }
  const typesOf = (events: readonly BaseEvent[]) => events.map((e) => e.type);
  const stateOf = (a: HttpAgent) => a.state as AgentState;
  const lastText = (a: HttpAgent) => a.messages.filter((m) => m.role === "assistant").at(-1)?.content;

  it("streams a turn: the tool call under the native tool_call_id, the text, citations and cognition as state", async () => {
    wire.script(
      callTools({ name: "service_recall", args: '{"query":"who picked postgres","k":3}' }),
      say("Alice ", "picked PostgreSQL."),
    );
    const a = agent();
    const events = await run(a, "Who picked PostgreSQL?");
    const types = typesOf(events);
    expect(types[0]).toBe("RUN_STARTED");
    expect(types[1]).toBe("STATE_SNAPSHOT");
    expect(types.at(-1)).toBe("RUN_FINISHED");
    expect(types).toEqual(expect.arrayContaining(["TOOL_CALL_START", "TOOL_CALL_RESULT", "TEXT_MESSAGE_CONTENT"]));
    expect(lastText(a)).toBe("Alice picked PostgreSQL.");
    const state = stateOf(a);
    expect(state.citations).toHaveLength(1);
    expect(state.citations[0]).toMatchObject({
      source_path: "storage.md",
      chunk_hash: expect.stringMatching(/^sha256:/),
    });
    expect(state.cognition).toMatchObject({ layers: expect.any(Array), guardrails: expect.any(Array) });
    const log = await logOf(svc, state.session_id);
    const native = dataOf<{ tool_call_id: string }>(log, "tool_call")[0]!;
    const start = events.find((e) => e.type === "TOOL_CALL_START") as BaseEvent & { toolCallId: string };
    expect(start.toolCallId).toBe(native.tool_call_id);
    const call = a.messages.find((m) => m.role === "assistant" && m.toolCalls?.length);
    expect(call && "toolCalls" in call && call.toolCalls?.[0]?.function.name).toBe("service_recall");
    // A native event without a counterpart arrives as CUSTOM under its own name.
    expect(events.some((e) => e.type === "CUSTOM" && (e as { name?: string }).name === "usage")).toBe(true);
  });

  it("runs a second turn on the same thread in the same session", async () => {
    const a = agent();
    wire.script(say("First."));
    await run(a, "Say something.");
    const sessionId = stateOf(a).session_id;
    wire.script(say("Second."));
    await run(a, "And again.");
    expect(stateOf(a).session_id).toBe(sessionId);
    expect(a.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual(["First.", "Second."]);
    const log = await logOf(svc, sessionId);
    expect(dataOf(log, "turn_start").map((t) => t["message"])).toEqual(["Say something.", "And again."]);
  });

  it("ends a run that needs an approval with an interrupt, and the next run's resume answers it", async () => {
    wire.script(
      callTools({ name: "service_ingest", args: '{"source_path":"cats.md","content":"Cats sleep a lot."}' }),
      say("Stored."),
    );
    const a = agent();
    const first = await run(a, "Remember that cats sleep a lot.");
    const finished = first.at(-1) as BaseEvent & {
      outcome: { type: string; interrupts: { id: string; toolCallId: string; reason: string }[] };
    };
    expect(finished.outcome.type).toBe("interrupt");
    const interrupt = finished.outcome.interrupts[0]!;
    const log = await logOf(svc, stateOf(a).session_id);
    const asked = dataOf<{ request_id: string; tool_call_id: string }>(log, "approval_required")[0]!;
    expect(interrupt).toMatchObject({ id: asked.request_id, toolCallId: asked.tool_call_id, reason: "tool_call" });
    expect(typesOf(first)).toContain("TOOL_CALL_START");

    // A new message while the interrupt is open is refused in-band.
    const refused = await run(agent(svc.token, a.threadId), "Something else?");
    expect(refused.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "awaiting_approval" });

    const second = await run(a, undefined, {
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
    });
    expect(typesOf(second)).not.toContain("TOOL_CALL_START"); // announced in the interrupted run
    expect(second.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({ toolCallId: interrupt.toolCallId });
    expect(second.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(lastText(a)).toBe("Stored.");
    const after = await logOf(svc, stateOf(a).session_id);
    expect(dataOf(after, "approval_applied")[0]).toMatchObject({ request_id: interrupt.id, decision: "approve" });
  });

  it("refuses a wrong token with a clear error and writes nothing", async () => {
    const before = ((await (await svc.get("/sessions")).json()) as { sessions: unknown[] }).sessions.length;
    const a = agent("smr_not-a-token");
    a.addMessage({ id: randomUUID(), role: "user", content: "Hello?" });
    await expect(a.runAgent()).rejects.toThrow(/401|unauthorized/i);
    const after = ((await (await svc.get("/sessions")).json()) as { sessions: unknown[] }).sessions.length;
    expect(after).toBe(before);
    expect(wire.requests).toHaveLength(0);
  });

  it("refuses a token without the write scope before the stream, and names an unknown session id in RUN_ERROR", async () => {
    const reader = await svc.issueToken(undefined, [], ["read"]);
    const a = agent(reader.token);
    a.addMessage({ id: randomUUID(), role: "user", content: "Hello?" });
    await expect(a.runAgent()).rejects.toThrow(/403|insufficient_scope/);
    const unknown = await run(agent(svc.token, "ses_00000000-0000-0000-0000-000000000000"), "Hello?");
    expect(typesOf(unknown)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(unknown.at(-1)).toMatchObject({ code: "not_found" });
    expect(wire.requests).toHaveLength(0);
  });

  it("after a cut connection, running the thread again delivers the rest of the answer once", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    wire.script(async (res) => {
      openSse(res);
      data(res, delta({ content: "Alice " }));
      await held;
      data(res, delta({ content: "picked PostgreSQL." }));
      data(res, delta({}, "stop"));
      data(res, "[DONE]");
      res.end();
    });
    const a = agent();
    a.addMessage({ id: randomUUID(), role: "user", content: "Who picked PostgreSQL?" });
    const cut = a.runAgent({}, { onTextMessageContentEvent: () => a.abortRun() }).catch(() => null);
    await cut;
    expect(lastText(a)).toBe("Alice ");
    release();
    await run(a);
    expect(lastText(a)).toBe("Alice picked PostgreSQL.");
    expect(a.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
    const log = await logOf(svc, stateOf(a).session_id);
    expect(dataOf(log, "turn_start")).toHaveLength(1); // the second run started no turn
  });
});
