// GET /sessions over HTTP: each line is titled by the session's first message or task, and a sub-agent session names
// the session that delegated to it (a branch does not: it is a session of its own).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionList } from "../../src/contract/background.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, send } from "./support.ts";

const NOTE =
  "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n\nTODO: migrate the reports job.\n";

describe("the session list's titles and delegation", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    expect((await svc.post("/v1/memory/ingest", { source_path: "storage.md", content: NOTE })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  const list = async () => {
    const res = await svc.get("/sessions", { limit: "50" });
    expect(res.status).toBe(200);
    const page = SessionList.parse(await res.json());
    return new Map(page.sessions.map((s) => [s.session.session_id, s]));
  };

  it("titles a chat by its first message, a background session by its task, a new chat by nothing yet", async () => {
    const fresh = await createSession(svc);
    const chat = await createSession(svc);
    await send(svc, chat, "Who picked PostgreSQL?");
    await send(svc, chat, "And when?");
    const started = await svc.post("/sessions", { task: "Summarise   the storage\nnotes", approval_mode: "never" });
    const background = ((await started.json()) as { session: { session_id: string } }).session.session_id;
    const rows = await list();
    expect(rows.get(fresh)).toMatchObject({ title: null, delegated_by: null });
    expect(rows.get(chat)).toMatchObject({ kind: "chat", title: "Who picked PostgreSQL?", delegated_by: null });
    expect(rows.get(background)).toMatchObject({
      kind: "background",
      title: "Summarise the storage notes",
      delegated_by: null,
    });
  });

  it("a sub-agent session names the session whose delegate call started it, and is titled by its question", async () => {
    const parent = await createSession(svc);
    const events = await send(svc, parent, "Who picked PostgreSQL? What needs migrating?");
    const children = dataOf<{ session_id: string; question: string; status: string }>(events, "subagent_event").filter(
      (s) => s.status === "completed",
    );
    expect(children).toHaveLength(2);
    const rows = await list();
    expect(rows.get(parent)).toMatchObject({
      title: "Who picked PostgreSQL? What needs migrating?",
      delegated_by: null,
    });
    for (const child of children)
      expect(rows.get(child.session_id)).toMatchObject({ kind: "chat", delegated_by: parent, title: child.question });
  });

  it("a branch keeps its parent in session.parent_session_id but is not a delegation", async () => {
    const source = await createSession(svc);
    const events = await send(svc, source, "Who picked PostgreSQL?");
    const res = await svc.post(`/chat/sessions/${source}/branch`, { from_event_id: events.at(-1)!.id });
    expect(res.status).toBe(200);
    const branched = (await res.json()) as { session: { session_id: string } };
    const row = (await list()).get(branched.session.session_id);
    expect(row?.session.parent_session_id).toBe(source);
    expect(row).toMatchObject({ delegated_by: null, title: null });
  });

  it("cuts a long title to 200 characters", async () => {
    const chat = await createSession(svc);
    await send(svc, chat, `Who picked PostgreSQL? ${"and why ".repeat(60)}`);
    const title = (await list()).get(chat)!.title!;
    expect(title).toHaveLength(200);
    expect(title.endsWith("…")).toBe(true);
  });
});
