// The sentences of an answer that make a claim (issue 40 item 4): citation marks, quotes of cited evidence and the
// "Evidence:" framing around them say nothing of their own, so the reflection check does not count them.
import { splitSentences } from "../../domain/text/sentences.ts";

/** "(notes/db.md)", "(notes/db.md#L3, src/a.ts)", "[2]": where a claim came from, not a claim. */
const CITATION_MARK =
  /\s*\((?:[\w.@~-]+\/)*[\w.@~-]+\.[A-Za-z0-9]{1,8}(?:[#:]L?\d+(?:-L?\d+)?)?(?:\s*[,;]\s*(?:[\w.@~-]+\/)*[\w.@~-]+\.[A-Za-z0-9]{1,8}(?:[#:]L?\d+(?:-L?\d+)?)?)*\)|\s*\[\d+(?:\s*,\s*\d+)*\]/g;
/** Labels that frame evidence or a list ("Evidence:", "Still open:"), at the start of a line or sentence. */
const FRAMING =
  /(^|\n|[.!?]\s+)(?:evidence|sources?|citations?|quote|still open|open loops|recorded decisions)\s*:\s*/gi;
const QUOTE = /"([^"\n]+)"|“([^”\n]+)”/g;
/** "Memory holds no evidence that answers this.": an abstention, not a claim. */
const ABSTAINS = /^memory holds no\b/i;

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** The sentences of `text` that assert something, once quotes of cited spans, citation marks and framing are set aside. */
export function claimsOf(text: string, citedSpans: readonly string[]): string[] {
  const spans = citedSpans.map(norm);
  // A quote counts as evidence only when a cited span holds it word for word; a quote of nothing cited is a claim.
  const unquoted = text.replace(QUOTE, (whole, a?: string, b?: string) => {
    const inner = norm(a ?? b ?? "");
    return inner && spans.some((s) => s.includes(inner)) ? "" : whole;
  });
  const bare = unquoted.replace(CITATION_MARK, "").replace(FRAMING, "$1");
  return (
    splitSentences(bare)
      .map((s) => bare.slice(s.start, s.end))
      // A question (a sub-question echoed before its answer) asks; it does not assert.
      .filter((s) => /[\p{L}\p{N}]/u.test(s) && !ABSTAINS.test(s) && !/\?\W*$/.test(s))
  );
}
