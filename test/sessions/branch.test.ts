// Branching through HTTP: from an event id or a resume cursor, a new session seeded with a resume_seed checkpoint whose
// conversation is the source's up to that point; the source is untouched; foreign events and unknown cursors are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTools, say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, logOf, send } from "./support.ts";

interface Detail {
  session: Record<string, unknown>;
  last_event_id: string;
  turns: number;
  resume_points: { resume_cursor: string; event_id: string; kind: string; label: string }[];
  channel: {
    channel_id: string;
    participants: { id: string; kind: string }[];
    envelopes: { event_id: string; sender_id: string; recipient_ids: string[]; event_type: string }[];
  };
}

describe("branching a chat session", () => {
  let wire: ChatServer;
  let svc: TestService;
  let source: string;
  let before: Detail;
  let sourceLog: string[];
  const detail = async (sid: string) => (await (await svc.get(`/chat/sessions/${sid}`)).json()) as Detail;
  const branch = (sid: string, body: object) => svc.post(`/chat/sessions/${sid}/branch`, body);
  beforeAll(async () => {
    wire = await startChatServer();
    svc = await startTestService({ env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base } });
    wire.script(say("First answer."), say("Second answer."));
    source = await createSession(svc);
    await send(svc, source, "first question");
    await send(svc, source, "second question");
    before = await detail(source);
    sourceLog = (await logOf(svc, source)).map((e) => `${e.id} ${e.event}`);
  });
  afterAll(async () => {
    await svc.cleanup();
    await wire.close();
  });

  it("lists a resume point per completed turn, and projects the log as a channel", () => {
    expect(before.turns).toBe(2);
    expect(before.resume_points.map((r) => [r.kind, r.label])).toEqual([
      ["turn", 'after "first question"'],
      ["turn", 'after "second question"'],
    ]);
    const ch = before.channel;
    expect(ch.channel_id).toBe(`session:${source}`);
    expect(ch.participants.map((p) => p.kind).sort()).toEqual(["agent", "operator", "runtime"]);
    const turnStart = ch.envelopes.find((e) => e.event_type === "turn_start")!;
    expect([turnStart.sender_id, turnStart.recipient_ids]).toEqual(["operator:local", ["agent"]]);
    expect(ch.envelopes.at(-1)!.event_id).toBe(before.last_event_id);
  });

  it("branches from a resume cursor: the new session continues from the first turn only", async () => {
    const res = await branch(source, { resume_cursor: before.resume_points[0]!.resume_cursor });
    expect(res.status).toBe(200);
    const b = (await res.json()) as Detail;
    expect(b.session).toMatchObject({
      parent_session_id: source,
      branch_resume_cursor: before.resume_points[0]!.resume_cursor,
      branch_source_event_id: before.resume_points[0]!.event_id,
      status: "idle",
    });
    expect(b.resume_points[0]).toMatchObject({
      kind: "checkpoint",
      label: expect.stringMatching(/^resume_seed: branched from .* \(1 turn carried over\)$/),
    });
    const seed = dataOf(await logOf(svc, String(b.session.session_id)), "session_checkpoint")[0];
    expect(seed).toMatchObject({
      checkpoint_type: "resume_seed",
      sequence: 1,
      resume_cursor: before.resume_points[0]!.resume_cursor,
    });
    // The model sees the first turn and the new message, not the second turn.
    wire.script(say("Branch answer."));
    await send(svc, String(b.session.session_id), "third question");
    const seen = wire.requests.at(-1)!.messages.map((m) => `${m.role}:${m.content}`);
    expect(seen.slice(1)).toEqual(["user:first question", "assistant:First answer.", "user:third question"]);
  });

  it("branches from an event id inside a turn, carrying the tool call made before it", async () => {
    wire.script(callTools({ name: "service_recall", args: '{"query":"x"}' }), say("Tooled."));
    await send(svc, source, "third with a tool");
    const log = await logOf(svc, source);
    const outcome = log.find((e) => e.event === "tool_outcome")!;
    const b = (await (await branch(source, { from_event_id: outcome.id })).json()) as Detail;
    expect(b.session.branch_source_event_id).toBe(outcome.id);
    wire.script(say("From the branch."));
    await send(svc, String(b.session.session_id), "go on");
    const seen = wire.requests.at(-1)!.messages;
    expect(seen.map((m) => m.role).slice(-4)).toEqual(["user", "assistant", "tool", "user"]);
    expect(seen.at(-3)!.tool_calls![0]!.function.name).toBe("service_recall");
    sourceLog = log.map((e) => `${e.id} ${e.event}`);
  });

  it("leaves the source session untouched", async () => {
    expect((await logOf(svc, source)).map((e) => `${e.id} ${e.event}`)).toEqual(sourceLog);
  });

  it("refuses an event of another session, an unknown event, a made-up cursor, both or neither, writing nothing", async () => {
    const other = await createSession(svc);
    const otherEvent = (await logOf(svc, other))[0]!.id!;
    const cases: [object, number, string][] = [
      [{ from_event_id: otherEvent }, 400, "event_not_in_session"],
      [{ from_event_id: `${source}/9999` }, 404, "not_found"],
      [{ resume_cursor: "rc1.bm90LWEtY3Vyc29y" }, 400, "invalid_cursor"],
      [{ resume_cursor: "garbage" }, 400, "invalid_cursor"],
      [{ from_event_id: `${source}/1`, resume_cursor: before.resume_points[0]!.resume_cursor }, 400, "invalid_request"],
      [{}, 400, "invalid_request"],
      [{ from_event_id: 7 }, 400, "invalid_request"],
    ];
    for (const [body, status, code] of cases) {
      const res = await branch(source, body);
      expect(
        [res.status, ((await res.json()) as { error: { code: string } }).error.code],
        JSON.stringify(body),
      ).toEqual([status, code]);
    }
    expect((await logOf(svc, source)).map((e) => `${e.id} ${e.event}`)).toEqual(sourceLog);
  });
});
