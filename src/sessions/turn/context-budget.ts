// The context budget of a session's model: warnings at thresholds, and an extractive compaction of older turns.
import { messageTokens } from "../../domain/text/tokens.ts";
import { splitSentences } from "../../domain/text/sentences.ts";
import type { ChatMessage } from "../../ports/llm.ts";

/** context_warning fires when a step's prompt first crosses each of these shares of the budget. */
export const WARN_AT = [0.7, 0.85] as const;
/** Above this share, older turns are compacted before the step. */
export const COMPACT_AT = 0.9;
/** Turns kept verbatim by a compaction (the current one included). */
const KEEP_TURNS = 2;
const SUMMARY_SENTENCES = 12;

export const tokensOf = (messages: readonly ChatMessage[]) => messages.reduce((n, m) => n + messageTokens(m) + 4, 0);

export interface Compaction {
  original_count: number;
  compacted_count: number;
  tokens_saved: number;
  summary: string;
  preserved_messages: number;
}

/**
 * Folds every message before the last KEEP_TURNS user turns into one summary: the first sentence of each user message
 * and each response, in order (extractive, like pack's source summaries), so nothing is said that the log does not hold.
 * Null when there is nothing older to fold.
 */
export function compact(messages: readonly ChatMessage[]): Compaction | null {
  const userAt = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
  const cut = userAt.at(-KEEP_TURNS);
  if (cut === undefined || cut === 0) return null;
  const older = messages.slice(0, cut);
  if (!older.some((m) => m.role === "user")) return null; // only an earlier summary left: folding it again saves nothing
  const lines = older.flatMap((m) => {
    if (m.role !== "user" && !(m.role === "assistant" && m.content) && m.role !== "system") return [];
    const first = splitSentences(m.content)[0];
    const text = first ? m.content.slice(first.start, first.end) : m.content;
    return [`${m.role === "user" ? "User asked" : m.role === "system" ? "Earlier" : "Agent answered"}: ${text.trim()}`];
  });
  const summary = lines.slice(-SUMMARY_SENTENCES).join(" ");
  const preserved = messages.length - cut;
  const after = tokensOf([{ role: "system", content: summary }, ...messages.slice(cut)]);
  return {
    original_count: messages.length,
    compacted_count: preserved + 1,
    tokens_saved: Math.max(0, tokensOf(messages) - after),
    summary,
    preserved_messages: preserved,
  };
}
