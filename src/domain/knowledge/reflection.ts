// Reflection (manan) over captured text: each sentence becomes a question, counterpoint, principle or claim. Pure and deterministic.
import { splitSentences, type Span } from "../text/sentences.ts";

export type SentenceRole = "question" | "counterpoint" | "principle" | "claim";

export interface ReflectedSentence extends Span {
  role: SentenceRole;
}

/** A sentence that turns against what came before: the classic contrast openers, or a qualifying clause. */
const CONTRAST =
  /^(?:however|but|yet|although|though|even so|on the other hand|that said|nevertheless|nonetheless|conversely|in contrast|still,)\b|\b(?:however|except when|except if|unless|on the other hand|does not always|is not always|critics|a limitation|the downside)\b/i;
/** Normative language: what one should or should not do. */
const NORMATIVE =
  /\b(?:should|must|ought to|always|never|avoid|prefer|make sure|rule of thumb|best practice|it is better to|do not|don't)\b/i;
/** Sentences opening with an imperative verb read as advice. */
const IMPERATIVE =
  /^(?:use|avoid|prefer|keep|start|stop|write|test|measure|ask|remember|do|don't|make|treat|build|check|review|document|automate|limit|split|choose|favor|favour|let|begin|focus|plan|track|verify)\b/i;
/** Claims need enough words to assert something; shorter fragments are headings or labels. */
const MIN_CLAIM_WORDS = 5;

/** Every sentence of the content with its role, in document order; markdown heading lines are skipped. */
export function reflect(content: string): ReflectedSentence[] {
  const out: ReflectedSentence[] = [];
  const sentences = splitSentences(content);
  for (const s of sentences) {
    const text = content.slice(s.start, s.end);
    if (/^#{1,6}\s/.test(text)) continue;
    const role = roleOf(text);
    if (role) out.push({ ...s, role });
  }
  // Every reflection has at least one claim: with none by the rules, the first statement is what the capture asserts (it keeps its own
  // role too); a capture of headings alone asserts its first heading.
  const first = out.find((s) => s.role !== "question") ?? (out.length === 0 ? sentences[0] : undefined);
  if (first && !out.some((s) => s.role === "claim")) out.unshift({ ...first, role: "claim" });
  return out;
}

function roleOf(sentence: string): SentenceRole | null {
  const text = sentence.replace(/^[-*+>]\s+|^\d+[.)]\s+/, "").trim();
  if (text.endsWith("?")) return "question";
  if (CONTRAST.test(text)) return "counterpoint";
  if (NORMATIVE.test(text) || IMPERATIVE.test(text)) return "principle";
  return text.split(/\s+/).length >= MIN_CLAIM_WORDS ? "claim" : null;
}
