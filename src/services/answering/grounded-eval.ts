// Grounded eval service: per-nugget judgements and weighted scores, plus citation checks against the vault.
import {
  GroundedEvalRequest as Schema,
  type GroundedEvalRequest,
  type GroundedEvalResponse,
} from "../../contract/nuggets.ts";
import { IMPORTANCE_WEIGHT, judgeNugget, SUPPORT_VALUE, termSupport } from "../../domain/answering/nuggets.ts";
import { splitSentences } from "../../domain/text/sentences.ts";
import type { DocumentStore } from "../../ports/documents.ts";

/** A cited span backs its claim when it holds at least this share of the claim's terms. */
const CITATION_SUPPORT = 0.5;

export class GroundedEvalService {
  constructor(private readonly store: Pick<DocumentStore, "chunksByHash">) {}

  async evaluate(workspaceId: string, input: GroundedEvalRequest): Promise<GroundedEvalResponse> {
    const req = Schema.parse(input);
    const nuggets = req.nuggets.map((n) => {
      const j = judgeNugget(req.output, n.text);
      const why =
        j.support === "not_supported"
          ? `only ${j.matched.length} of ${j.matched.length + j.missing.length} key terms found${j.missing.length ? `; missing: ${j.missing.join(", ")}` : ""}`
          : `${Math.round(j.coverage * 100)}% of key terms in one passage${j.missing.length ? `; missing: ${j.missing.join(", ")}` : ""}`;
      return {
        text: n.text,
        importance: n.importance,
        support: j.support,
        coverage: round(j.coverage),
        matching_span: j.span ? req.output.slice(j.span.start, j.span.end) : null,
        why,
      };
    });
    const value = (ns: typeof nuggets) =>
      ns.length ? ns.reduce((a, n) => a + SUPPORT_VALUE[n.support], 0) / ns.length : 1;
    const weight = nuggets.reduce((a, n) => a + IMPORTANCE_WEIGHT[n.importance], 0);
    const citations = [];
    for (const c of req.citations ?? []) {
      const exists = (await this.store.chunksByHash(workspaceId, c.chunk_hash)).some((chunk) =>
        chunk.text.includes(c.text_span),
      );
      const claim = c.claim ?? bestSentence(req.output, c.text_span);
      const ratio = claim ? termSupport(claim, c.text_span) : 0;
      citations.push({
        chunk_hash: c.chunk_hash,
        exists,
        supports: exists && ratio >= CITATION_SUPPORT,
        support_ratio: round(ratio),
        claim,
      });
    }
    return {
      nuggets,
      nugget_recall: round(value(nuggets)),
      strict_recall: round(nuggets.filter((n) => n.support === "supported").length / nuggets.length),
      vital_recall: round(value(nuggets.filter((n) => n.importance === "vital"))),
      weighted_score: round(
        nuggets.reduce((a, n) => a + IMPORTANCE_WEIGHT[n.importance] * SUPPORT_VALUE[n.support], 0) / weight,
      ),
      citations,
      citation_precision: citations.length
        ? round(citations.filter((c) => c.supports).length / citations.length)
        : null,
    };
  }
}

/** The output sentence sharing most terms with the cited span. */
function bestSentence(output: string, span: string): string | null {
  let best: string | null = null;
  let bestRatio = 0;
  for (const s of splitSentences(output)) {
    const text = output.slice(s.start, s.end);
    const r = termSupport(text, span);
    if (r > bestRatio) [best, bestRatio] = [text, r];
  }
  return best;
}

const round = (x: number) => Number(x.toFixed(6));
