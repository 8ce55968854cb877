// Memory ranked for a question: the one way recall, pack and grounded answers read it, so a question ranks alike in each.
import type { Found } from "../../cognitive/pipeline.ts";
import type { RecallFilters } from "../../contract/memory.ts";
import type { Retriever } from "../../search/retriever.ts";
import type { RetrievalQuery } from "../../search/types.ts";
import type { Reference } from "../../domain/time/expressions.ts";
import { preferCurrent, type SupersessionMarks, type SupersessionReader } from "./prefer-current.ts";
import { recallLifts } from "./recall-lifts.ts";
import { supersessionOptions } from "./time-filter.ts";

export interface MemorySources {
  retriever: Retriever;
  /** Where replacements are read; without it nothing is marked superseded. */
  supersessions?: SupersessionReader | undefined;
}

/**
 * The best `rows` candidates (all with Infinity) for `q`: the lifts of `question` (the caller's words, as asked at
 * `askedAt`, which its relative time words are read against) move their base logits before calibration, then, on the
 * same logit, what a later statement replaced (as of `filters.as_of`) ranks lower.
 */
export async function rankMemory(
  sources: MemorySources,
  q: RetrievalQuery,
  question: string,
  opts: { rows: number; filters: RecallFilters | undefined; askedAt: Reference; yields: boolean | undefined },
): Promise<{ found: Found; marks: SupersessionMarks }> {
  const current = sources.supersessions
    ? preferCurrent(sources.supersessions, q.workspaceId, supersessionOptions(opts.filters))
    : undefined;
  const found = await sources.retriever.retrieveChunks(q, opts.rows, {
    yields: opts.yields,
    lifts: [...recallLifts(question, opts.askedAt), ...(current ? [current.lift] : [])],
  });
  return { found, marks: current?.marks ?? new Map() };
}
