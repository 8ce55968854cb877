// A session process warms the answer path before it takes turns (src/cli/serve.ts): that warm-up must leave no trace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import { openDbReader, type DbReader } from "../helpers/db-reader.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
let db: DbReader;
const written = () =>
  db.number(
    "SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM stream_events) + (SELECT COUNT(*) FROM records)",
  );

beforeAll(async () => {
  svc = await startTestService({ embedder: await loadGloveEmbedder() });
  db = await openDbReader(svc.config);
});
afterAll(async () => {
  await db.close();
  await svc.cleanup();
});

describe("warmAnswers", () => {
  it("loads the answer path without writing an audit record, an event or a record, and answers after it as before", async () => {
    await svc.post("/v1/memory/ingest", {
      content: "# Schema\n\nAsha decided the schema in May.",
      source_path: "notes/schema.md",
      kind: "markdown",
    });
    const before = await written();
    await svc.runtime.warmAnswers();
    await svc.runtime.warmAnswers(); // twice: nothing cached by the first breaks the second
    expect(await written()).toBe(before);
    const res = await svc.post("/v1/grounded/answer", { question: "Who decided the schema?" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { answer: string }).answer).toContain("Asha");
  });
});
