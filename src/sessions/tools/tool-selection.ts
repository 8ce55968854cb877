// Which tools a turn offers the model: the core memory tools always, the rest by BM25 relevance of their descriptions
// to the message; the tools that serve the message's intent come first (issue 40 item 5).
import { INTENT_TOOLS, intentOf } from "../../domain/text/question-intent.ts";
import { tokenize } from "../../domain/text/tokenize.ts";
import { Bm25Index } from "../../search/bm25.ts";
import type { SessionTool } from "./tool.ts";

/** Offered on every turn: what an agent over memory needs whatever the wording. */
export const CORE_TOOLS = new Set([
  "service_grounded_answer",
  "service_recall",
  "service_pack",
  "service_decisions_list",
  "service_open_loops",
  "service_ingest",
  "delegate",
]);
/** At most this many tools per turn (the core ones included): small models choose better among few. */
export const MAX_OFFERED = 12;

export class ToolSelector {
  private readonly index = new Bm25Index();

  constructor(private readonly tools: readonly SessionTool[]) {
    tools.forEach((t, i) => this.index.add(i, tokenize(`${t.name.replace(/_/g, " ")} ${t.description}`)));
  }

  /** The eligible tools to offer for `message`, best first (the intent's tools in its order, then by score), each with its BM25 score. */
  select(message: string, eligible: (t: SessionTool) => boolean): { tool: SessionTool; score: number }[] {
    const preferred = INTENT_TOOLS[intentOf(message)];
    // Word overlap alone ranks "Who picked PostgreSQL?" nearest a tool whose description says "pick"; the intent says it wants an answer.
    const rank = (name: string) => (preferred.includes(name) ? preferred.indexOf(name) : preferred.length);
    const terms = tokenize(message);
    const scored = this.tools
      .map((tool, i) => ({ tool, score: Math.round(this.index.score(terms, i) * 1000) / 1000 }))
      .filter((s) => eligible(s.tool));
    const core = scored.filter((s) => CORE_TOOLS.has(s.tool.name));
    const rest = scored.filter((s) => !CORE_TOOLS.has(s.tool.name) && s.score > 0).sort((a, b) => b.score - a.score);
    return [...core, ...rest]
      .slice(0, Math.max(MAX_OFFERED, core.length))
      .sort((a, b) => rank(a.tool.name) - rank(b.tool.name) || b.score - a.score);
  }
}
