// The README's 30-second tour, run as written (issue 40): its notes (read from the README's printf lines), ingested and
// asked through the HTTP routes and a chat session, answer as the README says.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { OpenLoopsResponse } from "../../src/contract/open-loops.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, send } from "../sessions/support.ts";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const TOUR = README.slice(README.indexOf("## A 30-second tour"), README.indexOf("## API"));
/** `printf '...' > notes/x.md` lines of the tour: printf's \n escapes, nothing else, are used there. */
const NOTES = [...TOUR.matchAll(/printf '([^']*)' > (notes\/[\w.-]+\.md)/g)].map((m) => ({
  source_path: m[2]!,
  content: m[1]!.replace(/\\n/g, "\n"),
}));
const OPEN_QUESTION = "Open question: who pays for the extra brokers?";

describe("the README's tour", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    expect(NOTES.map((n) => n.source_path)).toEqual(["notes/db.md", "notes/infra.md"]);
    for (const n of NOTES) expect((await svc.post("/v1/memory/ingest", { ...n, kind: "markdown" })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  const ask = async (question: string) => svc.post("/v1/grounded/answer", { question });

  it('answers "What is still open?" with the open question and its citation', async () => {
    const res = await ask("What is still open?");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as GroundedAnswerResponse;
    expect(body.answer).toBe(OPEN_QUESTION);
    expect(body.citations[0]).toMatchObject({
      source_path: "notes/infra.md",
      text_span: OPEN_QUESTION,
      anchor: "Infrastructure > Staging",
    });
    const stored = await svc.runtime.store.documents.chunksByHash(svc.workspaceId, body.citations[0]!.chunk_hash);
    expect(stored.some((c) => c.text.includes(OPEN_QUESTION))).toBe(true);
  });

  it("lists the open question in the Open loops view", async () => {
    const loops = (await (await svc.get("/v1/open_loops")).json()) as OpenLoopsResponse;
    expect(loops.loops.map((l) => [l.source_path, l.line, l.marker, l.text])).toEqual([
      ["notes/infra.md", 7, "QUESTION", OPEN_QUESTION],
    ]);
  });

  it("the chat agent lists it with its citation, and its reflection check passes", async () => {
    const events = await send(svc, await createSession(svc), "What is still open?");
    expect(dataOf<{ offered: { name: string }[] }>(events, "tool_selected")[0]!.offered[0]!.name).toBe(
      "service_open_loops",
    );
    expect(dataOf<{ text: string }>(events, "thinking")[0]!.text).toContain("service_open_loops");
    const [response] = dataOf<{ text: string; citations: { source_path: string; text_span: string }[] }>(
      events,
      "response",
    );
    expect(response!.text).toBe(`Still open: "${OPEN_QUESTION}" (notes/infra.md).`);
    expect(response!.citations).toMatchObject([{ source_path: "notes/infra.md", text_span: OPEN_QUESTION }]);
    expect(dataOf(events, "reflection")[0]).toMatchObject({ passed: true });
  });

  it("the chat agent's cited answer to the tour's first question passes its reflection check", async () => {
    const events = await send(svc, await createSession(svc), "Who made the final call on PostgreSQL?");
    const [response] = dataOf<{ text: string }>(events, "response");
    expect(response!.text).toMatch(/^Alice Chen\. Evidence: ".*" \(notes\/db\.md\)\.$/);
    expect(dataOf(events, "reflection")[0]).toMatchObject({ passed: true });
  });

  it('answers "Who picked PostgreSQL?" with Alice Chen or abstains, never with a date, from the grounded answer', async () => {
    const res = await ask("Who picked PostgreSQL?");
    const body = (await res.json()) as GroundedAnswerResponse & { error?: { code: string } };
    if (res.status === 200) expect(body.answer).toContain("Alice Chen");
    else expect([res.status, body.error?.code]).toEqual([422, "insufficient_evidence"]);
    expect(JSON.stringify(body)).not.toMatch(/"answer":"March/);
    const events = await send(svc, await createSession(svc), "Who picked PostgreSQL?");
    expect(dataOf<{ offered: { name: string }[] }>(events, "tool_selected")[0]!.offered[0]!.name).toBe(
      "service_grounded_answer",
    );
  });

  it('answers "Where is the staging cluster moving?" with eu-west-2, not a weekday or the open question', async () => {
    const res = await ask("Where is the staging cluster moving?");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as GroundedAnswerResponse;
    expect(body.answer).toBe("eu-west-2");
    expect(body.citations[0]).toMatchObject({ source_path: "notes/infra.md" });
  });
});
