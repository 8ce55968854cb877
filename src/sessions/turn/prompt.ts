// What a step sends the provider: the system prompt and the conversation from the log, compacted first when it is over
// the session's context budget, with a warning at each threshold it crosses.
import type { ChatMessage } from "../../ports/llm.ts";
import { resumeCursor } from "../ids.ts";
import { COMPACT_AT, compact, tokensOf, WARN_AT } from "./context-budget.ts";
import type { HarnessDeps, Turn } from "./turn-state.ts";

/** The messages of the turn's next step (logging context_compacted or context_warning through the turn's writer). */
export async function prompt(deps: HarnessDeps, t: Turn): Promise<ChatMessage[]> {
  const budget = t.state.context_budget_tokens ?? deps.providers.contextTokens(t.state.provider);
  let messages = [system(t), ...t.writer.messages()];
  let used = tokensOf(messages);
  if (used >= COMPACT_AT * budget) {
    const c = compact(messages.slice(1));
    if (c) {
      await t.writer.write("context_compacted", {
        ...c,
        resume_cursor: resumeCursor({ sessionId: t.sessionId, seq: t.writer.events.at(-1)!.seq }),
      });
      messages = [system(t), ...t.writer.messages()];
      used = tokensOf(messages);
    }
  }
  // Each threshold warns once until a compaction brings the prompt back under it.
  const sinceCompaction = t.writer.events.slice(
    t.writer.events.findLastIndex((e) => e.type === "context_compacted") + 1,
  );
  const warned = Math.max(
    0,
    ...sinceCompaction
      .filter((e) => e.type === "context_warning")
      .map((e) => (e.data as { threshold: number }).threshold),
  );
  const reached = WARN_AT.filter((w) => used >= w * budget).at(-1);
  if (reached !== undefined && reached > warned)
    await t.writer.write("context_warning", { used_tokens: used, budget_tokens: budget, threshold: reached });
  return messages;
}

function system(t: Turn): ChatMessage {
  return {
    role: "system",
    content:
      `You are Smriti's ${t.state.agent_profile} agent. Answer from this workspace's memory only, through the tools offered; ` +
      "cite what you use and say plainly when memory holds no evidence.",
  };
}
