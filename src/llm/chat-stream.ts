// The OpenAI-compatible streaming chat wire format (Ollama, vLLM, llama.cpp, LM Studio, OpenAI): `data:` chunks of
// choices[].delta (content, tool_calls fragments split across chunks), a usage chunk, then `data: [DONE]`.
import { z } from "zod";
import { ProviderError, type ProviderEvent, type ToolCallRequest } from "../ports/llm.ts";

const Chunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            // Reasoning models served by Ollama, vLLM or DeepSeek stream their stated reasoning beside the content.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().min(0),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: z.object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) }).nullish(),
});

/** Turns a stream's `data:` payloads into provider events: text at once, the tool calls whole once the model finishes. */
export class ChatStreamAssembler {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();
  private finishReason: string | null = null;
  private callsSent = false;
  private ended = false;

  /** One `data:` payload (without the prefix); returns the events it completes. */
  push(data: string): ProviderEvent[] {
    if (this.ended) return [];
    if (data.trim() === "[DONE]") return this.end();
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new ProviderError("protocol", "a stream chunk is not JSON");
    }
    const chunk = Chunk.safeParse(json);
    if (!chunk.success)
      throw new ProviderError("protocol", `unexpected stream chunk: ${chunk.error.issues[0]?.message ?? "invalid"}`);
    const out: ProviderEvent[] = [];
    for (const choice of chunk.data.choices) {
      const reasoning = choice.delta?.reasoning_content ?? choice.delta?.reasoning;
      if (reasoning) out.push({ type: "thinking", text: reasoning });
      if (choice.delta?.content) out.push({ type: "text", text: choice.delta.content });
      for (const part of choice.delta?.tool_calls ?? []) {
        const call = this.calls.get(part.index) ?? { id: "", name: "", arguments: "" };
        call.id ||= part.id ?? "";
        call.name += part.function?.name ?? "";
        call.arguments += part.function?.arguments ?? "";
        this.calls.set(part.index, call);
      }
      this.finishReason = choice.finish_reason ?? this.finishReason;
    }
    // The model is done once it says why: its tool calls are whole then (before the usage chunk that may follow).
    if (this.finishReason !== null) out.push(...this.takeCalls());
    if (chunk.data.usage)
      out.push({
        type: "usage",
        inputTokens: chunk.data.usage.prompt_tokens,
        outputTokens: chunk.data.usage.completion_tokens,
      });
    return out;
  }

  /** The end of the stream: done; a stream that never said why it finished was cut off. */
  end(): ProviderEvent[] {
    if (this.ended) return [];
    this.ended = true;
    if (this.finishReason === null) throw new ProviderError("cut", "the stream ended before the model finished");
    return [...this.takeCalls(), { type: "done", finishReason: this.finishReason }];
  }

  /** The assembled tool calls in index order, once. */
  private takeCalls(): ProviderEvent[] {
    if (this.callsSent) return [];
    this.callsSent = true;
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]): ProviderEvent => {
        if (!c.name) throw new ProviderError("protocol", `tool call ${index} has no name`);
        const call: ToolCallRequest = { id: c.id || `call_${index}`, name: c.name, arguments: c.arguments || "{}" };
        return { type: "tool_call", call };
      });
  }
}
