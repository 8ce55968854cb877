// Decision extraction service: runs the pure extractor and turns its spans into Citations. Writes nothing.
import type { DecisionExtractRequest, DecisionExtractResponse } from "../../contract/decisions.ts";
import { extractDecisions } from "../../domain/knowledge/decisions.ts";
import { contentHash } from "../../domain/text/hash.ts";
import type { Clock } from "../../ports/clock.ts";
import { spanCitation } from "../memory/citations.ts";

export class DecisionService {
  constructor(private readonly clock: Clock) {}

  extract(req: DecisionExtractRequest): DecisionExtractResponse {
    const sourcePath = req.source_path ?? `text/${contentHash(req.content).slice(7, 19)}`;
    const now = this.clock.now();
    return {
      source_path: sourcePath,
      decisions: extractDecisions(req.content).map((d) => ({
        style: d.style,
        title: d.title,
        status: d.status,
        date: d.date,
        context: d.context,
        decision: d.decision,
        chosen_option: d.chosenOption,
        consequences: d.consequences,
        options: d.options,
        supersedes: d.supersedes,
        superseded_by: d.supersededBy,
        citations: d.spans.map((s) => ({
          field: s.field,
          ...spanCitation(sourcePath, s.anchor, req.content.slice(s.start, s.end), 1, now),
        })),
      })),
    };
  }
}
