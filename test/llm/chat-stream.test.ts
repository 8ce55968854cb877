// The OpenAI-compatible streaming wire format, as servers send it: text deltas, tool calls in fragments, usage, [DONE].
import { describe, expect, it } from "vitest";
import { ChatStreamAssembler } from "../../src/llm/chat-stream.ts";
import { ProviderError, type ProviderEvent } from "../../src/ports/llm.ts";

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

function run(payloads: readonly string[], end = true): ProviderEvent[] {
  const a = new ChatStreamAssembler();
  const out = payloads.flatMap((p) => a.push(p));
  return end ? [...out, ...a.end()] : out;
}

describe("ChatStreamAssembler", () => {
  it("passes text deltas on as they arrive and ends with usage and done", () => {
    const a = new ChatStreamAssembler();
    expect(a.push(chunk({ role: "assistant", content: "" }))).toEqual([]);
    expect(a.push(chunk({ content: "Postgre" }))).toEqual([{ type: "text", text: "Postgre" }]);
    expect(a.push(chunk({ content: "SQL." }, "stop"))).toEqual([{ type: "text", text: "SQL." }]);
    expect(
      a.push(JSON.stringify({ choices: [], usage: { prompt_tokens: 31, completion_tokens: 4, total_tokens: 35 } })),
    ).toEqual([{ type: "usage", inputTokens: 31, outputTokens: 4 }]);
    expect(a.push("[DONE]")).toEqual([{ type: "done", finishReason: "stop" }]);
    expect(a.push(chunk({ content: "late" }))).toEqual([]);
  });

  it("assembles two tool calls whose names and arguments arrive in fragments, interleaved, by index", () => {
    const events = run([
      chunk({
        role: "assistant",
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "service_recall", arguments: "" } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"que' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: "call_b", type: "function", function: { name: "service_open", arguments: '{"li' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 1, function: { name: "_loops", arguments: 'mit": 5}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ry": "why postgres"}' } }] }, "tool_calls"),
      "[DONE]",
    ]);
    expect(events).toEqual([
      { type: "tool_call", call: { id: "call_a", name: "service_recall", arguments: '{"query": "why postgres"}' } },
      { type: "tool_call", call: { id: "call_b", name: "service_open_loops", arguments: '{"limit": 5}' } },
      { type: "done", finishReason: "tool_calls" },
    ]);
  });

  it("ends a stream closed without [DONE] by its finish reason, and calls a stream with none a cut-off", () => {
    expect(run([chunk({ content: "Yes." }, "stop")])).toEqual([
      { type: "text", text: "Yes." },
      { type: "done", finishReason: "stop" },
    ]);
    const cut = new ChatStreamAssembler();
    cut.push(chunk({ content: "Half an ans" }));
    expect(() => cut.end()).toThrow(expect.objectContaining({ name: "ProviderError", kind: "cut" }));
  });

  it("rejects a chunk that is not JSON or not the chunk shape, and a tool call without a name, as protocol errors", () => {
    expect(() => run(["{not json"], false)).toThrow(ProviderError);
    expect(() => run([JSON.stringify({ choices: [{ delta: { content: 7 } }] })], false)).toThrow(
      expect.objectContaining({ kind: "protocol" }),
    );
    expect(() =>
      run([chunk({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }, "tool_calls"), "[DONE]"]),
    ).toThrow(expect.objectContaining({ kind: "protocol" }));
  });
});
