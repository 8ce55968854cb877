// One provider step down the fallback chain: the model's text streams as token events, its thinking and tool calls are
// gathered, and a provider that fails hands the step to the next (transport_diagnostic), keeping what it said.
import { ProviderError, type ChatMessage, type ProviderEvent, type ToolCallRequest } from "../../ports/llm.ts";
import { settlesBeforeIo } from "../../threads/loop-yield.ts";
import type { SessionEventItem } from "../log/session-log.ts";
import { stopPoint, type HarnessDeps, type Turn } from "./turn-state.ts";

/** The step's tool calls; text deltas that arrive together (one network read, or a provider that yields them at once) are logged together. */
export async function providerStep(
  deps: HarnessDeps,
  t: Turn,
  messages: ChatMessage[],
): Promise<{ calls: ToolCallRequest[] }> {
  const chain = deps.providers.chain(t.state.provider, t.state.model || null);
  const specs = t.offered.map((o) => ({ name: o.name, description: o.description, parameters: o.parameters }));
  let texts: string[] = [];
  const flush = async () => {
    if (!texts.length) return;
    const items = texts.map((text): SessionEventItem => ({ type: "token", data: { turn_id: t.turnId, text } }));
    texts = [];
    await t.writer.writeAll(items);
  };
  for (let i = 0; ; i++) {
    const provider = chain[i]!;
    let thinking = "";
    const calls: ToolCallRequest[] = [];
    const events = provider.step({ messages, tools: specs })[Symbol.asyncIterator]();
    let pending: Promise<IteratorResult<ProviderEvent>> | null = null;
    try {
      for (;;) {
        pending = events.next();
        // The provider waits for more (the network): what came so far streams now, not with the next delta.
        if (texts.length && !(await settlesBeforeIo(pending))) await flush();
        const { done, value: ev } = await pending;
        pending = null;
        if (done) break;
        if (t.signal?.aborted) await flush(); // what came before the stop is logged (unless another process took the turn)
        stopPoint(t);
        if (ev.type === "text") texts.push(ev.text);
        else if (ev.type === "thinking") thinking += ev.text;
        else if (ev.type === "tool_call") calls.push(ev.call);
        else if (ev.type === "usage")
          [t.usage.input, t.usage.output] = [t.usage.input + ev.inputTokens, t.usage.output + ev.outputTokens];
      }
      await flush();
      if (thinking && t.state.think_level !== "off")
        await t.writer.write("thinking", { turn_id: t.turnId, text: thinking });
      return { calls };
    } catch (err) {
      // Closes the provider's stream (as a for-await would), after a step it is still reading, if any.
      pending?.catch(() => {});
      void events.return?.(undefined).catch(() => {});
      if (!(err instanceof ProviderError)) throw err;
      await flush(); // what the failed provider said before it failed stays in the log
      const next = chain[i + 1];
      await t.writer.write("transport_diagnostic", {
        status: next ? "fallback" : "failed",
        kind: err.kind,
        provider_requested: chain[0]!.id,
        provider_actual: (next ?? provider).id,
        reason: `${provider.id}: ${err.message}`,
        failure_count: ++t.failures,
      });
      if (!next) throw err;
    }
  }
}
