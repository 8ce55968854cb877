// smriti/ai-sdk inside generateText, the model @ai-sdk/openai's chat model against the OpenAI-wire double: the tools the
// model is offered carry the contract's schemas, a call runs against the service, and its citations come back intact.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { smritiTools } from "../../src/frameworks/ai-sdk/index.ts";
import { callTools, say } from "../helpers/chat-server.ts";
import { HASH, NOTE, startFixture, TOOL_NAMES, type Fixture } from "./fixture.ts";

describe("smriti/ai-sdk", () => {
  let f: Fixture;
  beforeAll(async () => (f = await startFixture()));
  afterAll(() => f.close());
  beforeEach(() => void f.wire.requests.splice(0));

  const model = () => createOpenAI({ baseURL: f.wire.base, apiKey: "test" }).chat("wire-model");

  it.each([
    ["a remote service (URL + token)", () => ({ baseUrl: f.server.url, token: f.svc.token })],
    ["in-process (the local client)", () => f.local],
  ])("runs the grounded answer the model asks for inside generateText, on %s", async (_where, source) => {
    f.wire.script(
      callTools({ name: "service_grounded_answer", args: '{"question":"Who picked PostgreSQL?"}' }),
      say("Alice picked PostgreSQL (storage.md)."),
    );
    const result = await generateText({
      model: model(),
      tools: smritiTools(source()),
      stopWhen: stepCountIs(4),
      prompt: "Who picked PostgreSQL?",
    });
    expect(result.text).toBe("Alice picked PostgreSQL (storage.md).");
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult.toolName).toBe("service_grounded_answer");
    const output = toolResult.output as { citations: { chunk_hash: string; source_path: string; text_span: string }[] };
    expect(output.citations[0]).toMatchObject({ chunk_hash: expect.stringMatching(HASH), source_path: "storage.md" });
    expect(NOTE).toContain(output.citations[0]!.text_span);
    // The model was offered every memory operation with the contract's schema, and got the citations back.
    const offered = f.wire.requests[0]!.tools as unknown as {
      function: { name: string; parameters: { properties: Record<string, unknown> } };
    }[];
    expect(offered.map((t) => t.function.name)).toEqual(TOOL_NAMES);
    expect(Object.keys(offered[0]!.function.parameters.properties)).toEqual(
      expect.arrayContaining(["query", "k", "mode", "filters"]),
    );
    const sentBack = f.wire.requests[1]!.messages.find((m) => m.role === "tool")!;
    expect(sentBack.tool_call_id).toBe("wire_0");
    expect(sentBack.content).toContain(output.citations[0]!.chunk_hash);
  });

  it("rejects arguments that fail the contract's schema before any request reaches the service", async () => {
    f.wire.script(callTools({ name: "service_recall", args: '{"query":"postgres","k":1000}' }), say("Sorry."));
    const result = await generateText({
      model: model(),
      tools: smritiTools({ baseUrl: f.server.url, token: f.svc.token }),
      stopWhen: stepCountIs(3),
      prompt: "Recall a lot.",
    });
    // A tool-error, not a result: the service's own 4xx would have come back as a result (its error envelope).
    const failed = result.steps[0]!.content.find((c) => c.type === "tool-error");
    expect(failed).toMatchObject({ toolName: "service_recall" });
    expect(result.steps[0]!.toolResults).toEqual([]);
  });
});
