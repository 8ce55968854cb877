// The context budget through HTTP: warnings at the documented thresholds, then a compaction that folds older turns into
// an extractive summary the model sees instead of them; both persisted in the log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WARN_AT } from "../../src/sessions/turn/context-budget.ts";
import { say, startChatServer, type ChatServer } from "../helpers/chat-server.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, logOf, send } from "./support.ts";

/** About 150 tokens of distinct words. */
const long = (topic: string) =>
  `Tell me about ${topic}. ` + Array.from({ length: 110 }, (_, i) => `${topic}${i}`).join(" ") + ".";

describe("context budget and compaction", () => {
  let wire: ChatServer;
  let svc: TestService;
  beforeAll(async () => {
    wire = await startChatServer();
    svc = await startTestService({ env: { SMRITI_LLM_PROVIDER: "openai", SMRITI_LLM_BASE_URL: wire.base } });
  });
  afterAll(async () => {
    await svc.cleanup();
    await wire.close();
  });

  it("warns as the prompt crosses each threshold, then compacts older turns and sends the summary instead", async () => {
    wire.script(say("Noted one."), say("Noted two."), say("Noted three."), say("Noted four."));
    const sid = await createSession(svc, { context_budget_tokens: 600 });
    for (const topic of ["alpha", "beta", "gamma", "delta"]) await send(svc, sid, long(topic));
    const log = await logOf(svc, sid);
    const warnings = dataOf<{ used_tokens: number; budget_tokens: number; threshold: number }>(log, "context_warning");
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      expect(WARN_AT).toContain(w.threshold);
      expect(w.used_tokens).toBeGreaterThanOrEqual(w.threshold * 600);
      expect(w.budget_tokens).toBe(600);
    }
    const compactions = dataOf<{
      original_count: number;
      compacted_count: number;
      tokens_saved: number;
      summary: string;
      preserved_messages: number;
      resume_cursor: string;
    }>(log, "context_compacted");
    expect(compactions.length).toBeGreaterThan(0);
    const c = compactions[0]!;
    expect(c.compacted_count).toBeLessThan(c.original_count);
    expect(c.tokens_saved).toBeGreaterThan(0);
    expect(c.summary).toMatch(/^User asked: Tell me about alpha\. Agent answered: Noted one\./);
    expect(c.resume_cursor).toMatch(/^rc1\./);
    // The request after the compaction carries the summary and the preserved turns, not the folded ones.
    const at = log.findIndex((e) => e.event === "context_compacted");
    const turnsBefore = log.slice(0, at).filter((e) => e.event === "turn_start").length;
    const sent = wire.requests[turnsBefore - 1]!.messages;
    expect(sent[1]).toMatchObject({
      role: "system",
      content: expect.stringContaining("Summary of the earlier conversation: User asked: Tell me about alpha."),
    });
    expect(sent.filter((m) => m.role === "user").map((m) => m.content.split(".")[0])).not.toContain(
      "Tell me about alpha",
    );
    expect(sent.length - 2).toBe(c.preserved_messages);
  });
});
