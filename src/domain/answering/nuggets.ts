// Nugget evaluation in the manner of TREC RAG: does an output support each expected nugget, fully, partly or not.
import { splitSentences, type Span } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";

export type Support = "supported" | "partial" | "not_supported";

export interface NuggetJudgement {
  support: Support;
  /** Share of the nugget's terms found in the best output sentence. */
  coverage: number;
  /** The output sentence that matched best (absent when nothing matched). */
  span: Span | null;
  /** The nugget's own words (lowercase) whose terms the best sentence has, and those it lacks. */
  matched: string[];
  missing: string[];
}

/** Term coverage at or above SUPPORTED is support; at or above PARTIAL is partial support (README "Nugget evaluation"). */
export const SUPPORTED = 0.8;
export const PARTIAL = 0.4;

export function judgeNugget(output: string, nugget: string): NuggetJudgement {
  const wanted = [...new Set(tokenize(nugget))];
  if (wanted.length === 0) return { support: "not_supported", coverage: 0, span: null, matched: [], missing: [] };
  // Padded with spaces so the verbatim shortcut matches whole words only ("14" is not in "2014").
  const normalizedNugget = ` ${squash(nugget)} `;
  const word = surfaceWords(nugget); // reasons name "years", not the stem "year"
  const words = (terms: readonly string[]) => [...new Set(terms.map((t) => word.get(t) ?? t))];
  let best: NuggetJudgement = {
    support: "not_supported",
    coverage: 0,
    span: null,
    matched: [],
    missing: words(wanted),
  };
  for (const span of windows(output)) {
    const text = output.slice(span.start, span.end);
    const have = new Set(tokenize(text));
    const matched = wanted.filter((t) => have.has(t));
    const coverage = ` ${squash(text)} `.includes(normalizedNugget) ? 1 : matched.length / wanted.length;
    if (coverage > best.coverage)
      best = {
        support: coverage >= SUPPORTED ? "supported" : coverage >= PARTIAL ? "partial" : "not_supported",
        coverage,
        span,
        matched: words(matched),
        missing: words(wanted.filter((t) => !have.has(t))),
      };
  }
  return best;
}

/** Each term of `text` with the first word it came from, lowercased. */
function surfaceWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu))
    for (const t of tokenize(m[0])) if (!out.has(t)) out.set(t, m[0].toLowerCase());
  return out;
}

/** Single sentences and adjacent pairs: a nugget may straddle a sentence break. */
function windows(output: string): Span[] {
  const sentences = splitSentences(output);
  const pairs = sentences.slice(1).map((s, i) => ({ start: sentences[i]!.start, end: s.end }));
  return [...sentences, ...pairs];
}

function squash(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export const SUPPORT_VALUE: Record<Support, number> = { supported: 1, partial: 0.5, not_supported: 0 };
export const IMPORTANCE_WEIGHT = { vital: 1, okay: 0.5 } as const;

/** Share of `claim`'s terms that `evidence` contains: does a cited span back the sentence citing it. */
export function termSupport(claim: string, evidence: string): number {
  const wanted = new Set(tokenize(claim));
  if (wanted.size === 0) return 0;
  const have = new Set(tokenize(evidence));
  let n = 0;
  for (const t of wanted) if (have.has(t)) n++;
  return n / wanted.size;
}
