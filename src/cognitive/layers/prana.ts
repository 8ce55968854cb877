// prana (vital energy): the compute budget, so a long query or a slow layer cannot blow the latency target.
import { tokenize } from "../../domain/text/tokenize.ts";
import type { Layer } from "../types.ts";

const WORD = /[\p{L}\p{N}]+/gu;

/** The text cut after its `max`-th searchable word (stopwords do not count), or null when it has no more than that. */
export function trimToTerms(text: string, max: number): string | null {
  let terms = 0;
  for (const m of text.matchAll(WORD)) {
    terms += tokenize(m[0]).length;
    if (terms >= max) {
      const end = m.index + m[0].length;
      return end < text.trimEnd().length ? text.slice(0, end) : null;
    }
  }
  return null;
}

export const prana: Layer = {
  id: "prana",
  job: "Budgets compute: caps a query at maxQueryTerms searchable words and sets the request deadline after which optional layers are skipped.",
  counters: ["queries_trimmed", "layers_skipped_budget"],
  perceive(q, ctx) {
    const { budgetMs, maxQueryTerms } = ctx.params.prana;
    const trimmed = trimToTerms(q.text, maxQueryTerms);
    if (trimmed !== null) ctx.count("queries_trimmed");
    return { ...q, text: trimmed ?? q.text, deadline: performance.now() + budgetMs };
  },
};
