// ContextPack planning: selection in the given order under a hard token budget, reading order, summaries.
// (Focus/MMR order and near-duplicate removal happen before, in the cognitive layers dhyana and viveka.)
import { splitSentences, type Span } from "../text/sentences.ts";
import { estimateTokens } from "../text/tokens.ts";
import { tokenize } from "../text/tokenize.ts";

export interface PackCandidate {
  relevance: number;
  sourcePath: string;
  start: number;
  text: string;
}

export interface PackPlan<T extends PackCandidate> {
  items: { candidate: T; tokens: number }[];
  summaries: { sourcePath: string; candidate: T; span: Span; text: string }[];
  usedTokens: number;
  dropped: { overBudget: number };
}

const SUMMARY_MAX_CHARS = 200;

export function planPack<T extends PackCandidate>(
  candidates: readonly T[],
  opts: { budgetTokens: number; maxItems: number; intent: string },
): PackPlan<T> {
  const intentTerms = new Set(tokenize(opts.intent));
  const chosen: { candidate: T; tokens: number }[] = [];
  const summaries = new Map<string, PackPlan<T>["summaries"][number]>();
  const dropped = { overBudget: 0 };
  let used = 0;
  for (const candidate of candidates) {
    if (chosen.length >= opts.maxItems) break;
    const tokens = estimateTokens(candidate.text);
    const summary = summaries.has(candidate.sourcePath) ? null : summarize(candidate, intentTerms);
    const cost = tokens + (summary ? estimateTokens(summary.text) : 0);
    if (used + cost > opts.budgetTokens) {
      dropped.overBudget++;
      continue;
    }
    used += cost;
    chosen.push({ candidate, tokens });
    if (summary) summaries.set(candidate.sourcePath, summary);
  }
  return { items: readingOrder(chosen), summaries: [...summaries.values()], usedTokens: used, dropped };
}

/** Sources by their best item's relevance; inside a source, document order. */
function readingOrder<T extends PackCandidate>(
  chosen: { candidate: T; tokens: number }[],
): { candidate: T; tokens: number }[] {
  const rank = new Map<string, number>();
  for (const c of chosen)
    rank.set(c.candidate.sourcePath, Math.max(rank.get(c.candidate.sourcePath) ?? -Infinity, c.candidate.relevance));
  return [...chosen].sort(
    (a, b) =>
      rank.get(b.candidate.sourcePath)! - rank.get(a.candidate.sourcePath)! ||
      a.candidate.sourcePath.localeCompare(b.candidate.sourcePath) ||
      a.candidate.start - b.candidate.start,
  );
}

/** The sentence of the candidate sharing most terms with the intent (earliest on ties), cut at a word boundary. */
function summarize<T extends PackCandidate>(
  candidate: T,
  intentTerms: ReadonlySet<string>,
): PackPlan<T>["summaries"][number] {
  const spans = splitSentences(candidate.text);
  let best = spans[0] ?? { start: 0, end: candidate.text.length };
  let bestOverlap = -1;
  for (const span of spans) {
    const overlap = tokenize(candidate.text.slice(span.start, span.end)).filter((t) => intentTerms.has(t)).length;
    if (overlap > bestOverlap) {
      bestOverlap = overlap;
      best = span;
    }
  }
  let end = best.end;
  if (end - best.start > SUMMARY_MAX_CHARS) {
    const cut = candidate.text.lastIndexOf(" ", best.start + SUMMARY_MAX_CHARS);
    end = cut > best.start ? cut : best.start + SUMMARY_MAX_CHARS;
  }
  const span = { start: best.start, end };
  return { sourcePath: candidate.sourcePath, candidate, span, text: candidate.text.slice(span.start, span.end) };
}
