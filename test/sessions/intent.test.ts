// The agent reads the question's intent (issue 40 item 5): tool selection puts the tools that serve it first, the
// extractive plan follows it, and a multi-part question still goes to one sub-agent per part.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { createSession, dataOf, send } from "./support.ts";

const DB =
  "# Databases\n\n## Why Postgres\n\nWe picked PostgreSQL in March 2024 because the platform team already runs it. Alice Chen made the final call.\n";
const INFRA =
  "# Infrastructure\n\n## Staging\n\nThe staging cluster moves to eu-west-2 on Monday.\n\nOpen question: who pays for the extra brokers?\n";

describe("the agent routes by the question's intent", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    for (const [source_path, content] of [
      ["notes/db.md", DB],
      ["notes/infra.md", INFRA],
    ])
      expect((await svc.post("/v1/memory/ingest", { source_path, content })).status).toBe(200);
  });
  afterAll(() => svc.cleanup());

  const turn = async (message: string) => {
    const events = await send(svc, await createSession(svc), message);
    return {
      events,
      offered: dataOf<{ offered: { name: string }[] }>(events, "tool_selected")[0]!.offered.map((o) => o.name),
      called: dataOf<{ tool_name: string }>(events, "tool_outcome").map((o) => o.tool_name),
    };
  };

  it("offers the grounded answer first for a who-question, never a knowledge-lifecycle tool whose description shares a word", async () => {
    const { offered, called } = await turn("Who picked PostgreSQL?");
    expect(offered[0]).toBe("service_grounded_answer");
    expect(offered.indexOf("service_nididhyasan_implement")).not.toBe(0);
    expect(called).toEqual(["service_grounded_answer", "service_pack"]);
  });

  it("offers and calls the open loops for what is pending or undecided", async () => {
    for (const q of ["What is still open?", "Anything undecided?", "What is pending?"]) {
      const { offered, called, events } = await turn(q);
      expect([q, offered[0], called]).toEqual([q, "service_open_loops", ["service_open_loops"]]);
      expect(dataOf<{ text: string }>(events, "response")[0]!.text).toContain("who pays for the extra brokers?");
    }
  });

  it("keeps one sub-agent per part of a multi-part question, delegate offered first", async () => {
    const { offered, called, events } = await turn("Who made the final call on PostgreSQL? What is still open?");
    expect(offered[0]).toBe("delegate");
    expect(called).toEqual(["delegate", "delegate"]);
    const text = dataOf<{ text: string }>(events, "response")[0]!.text;
    expect(text).toContain("Alice Chen");
    expect(text).toContain("who pays for the extra brokers?");
  });
});
