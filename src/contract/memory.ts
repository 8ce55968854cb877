// Request and response schemas of the core Memory API: ingest, recall, forget, pack.
import { z } from "zod";
import { ChunkHash, Citation, OccurredAt } from "./citation.ts";
import { limits } from "./limits.ts";

export const SourcePath = z
  .string()
  .min(1)
  .max(limits.maxSourcePathChars)
  .describe("Human-readable location of the source, e.g. 'notes/db.md'. Re-ingesting the same path replaces it.");

/** A document's text as the API accepts it: within the size limit and not blank. */
export const DocumentText = z
  .string()
  .max(limits.maxContentChars)
  .regex(/\S/, "must contain text, not only whitespace");

export const DocumentKind = z
  .enum(["markdown", "text", "code"])
  .describe("How to chunk the content; inferred from the source_path extension when omitted.");

export const IngestRequest = z
  .strictObject({
    content: DocumentText.describe("The full text of the file or note (UTF-8 text; binary is rejected)."),
    source_path: SourcePath.optional().describe(
      "Where the content lives. Omit for loose text: the path becomes 'text/<first 12 hex of its hash>'.",
    ),
    kind: DocumentKind.optional(),
    occurred_at: OccurredAt.optional().describe(
      "When what the content says happened or was said (ISO 8601 with offset): the event time that recall's occurred_after / occurred_before / as_of filter on and that relative dates in the text are resolved against. " +
        "Defaults to a 'date:' in markdown front matter, else the ingest time. Dated lines inside the text (a session header or turn stamp such as '[2023-05-08 13:56]') date the chunks after them. " +
        "Text nothing dated keeps its relative words in answers ('yesterday' is not read against the ingest time).",
    ),
    timestamp: OccurredAt.optional().describe("Older name of occurred_at (used when occurred_at is absent)."),
  })
  .describe("Add a file or text to the workspace vault and index it.");
export type IngestRequest = z.infer<typeof IngestRequest>;

const ChunkRef = z.object({ chunk_hash: ChunkHash, anchor: z.string() });

export const IngestResponse = z.object({
  source_path: z.string(),
  document_hash: ChunkHash.describe("Hash of the whole normalized document."),
  kind: DocumentKind,
  unchanged: z
    .boolean()
    .describe(
      "True when the stored document already had exactly this content, analysed by this version of the service; nothing was rewritten.",
    ),
  chunks: z.number().int().describe("Chunks the document now has."),
  added: z.array(ChunkRef).describe("Chunks new to this document."),
  kept: z.array(ChunkRef).describe("Chunks the previous version already had (not re-embedded)."),
  removed: z.array(ChunkRef).describe("Chunks of the previous version that are gone."),
  deduplicated: z
    .number()
    .int()
    .describe("Added chunks whose identical text already existed in the workspace; their embedding was reused."),
});
export type IngestResponse = z.infer<typeof IngestResponse>;

export const RecallFilters = z
  .strictObject({
    source_path_prefix: z
      .string()
      .max(limits.maxSourcePathChars)
      .optional()
      .describe("Only sources whose path starts with this."),
    occurred_after: OccurredAt.optional().describe("Only chunks whose event time (occurred_at) is at or after this."),
    occurred_before: OccurredAt.optional().describe("Only chunks whose event time (occurred_at) is before this."),
    as_of: OccurredAt.optional().describe(
      "Recall as memory stood at this time: only what had occurred by then (occurred_at <= as_of). A future as_of is allowed; the response's notes say so.",
    ),
    since: OccurredAt.optional().describe("Older name of occurred_after."),
    until: OccurredAt.optional().describe("Older name of occurred_before."),
    min_score: z.number().min(0).max(1).optional().describe("Drop hits whose calibrated score is below this."),
    detect_supersession: z
      .boolean()
      .optional()
      .describe(
        "Also find statements a later one replaced among the best candidates, without a model (the same speaker states a different count, score or frequency " +
          "of the same thing later), mark them superseded_by (detected: true) and rank them lower. Off by default: 5 of its 9 finds on the dev data were right. " +
          "Replacements recorded explicitly (a decision's or capture's supersedes) always count.",
      ),
  })
  .describe("Narrow the search.");
export type RecallFilters = z.infer<typeof RecallFilters>;

/** When a question is asked: what its relative time words are read against (not a filter; as_of is). */
export const AskedAt = OccurredAt.optional().describe(
  "When the question is asked (ISO 8601 with offset; default: when the request arrives, in UTC). Its relative time words are read against it, " +
    "at its offset: 'two weeks ago', 'last weekend', 'yesterday' rank evidence from about then higher. " +
    "Unlike filters.as_of it hides nothing: give it when replaying a question asked earlier, or to set the asker's time zone.",
);

/** Remarks on how a request was read; absent when there are none. */
export const RequestNotes = z
  .array(z.string())
  .optional()
  .describe(
    "How the request was read when that needs saying: that its as_of lies in the future, what the question's relative time words ('last week') were read as against asked_at.",
  );

export const RetrievalMode = z
  .enum(["hybrid", "lexical", "vector"])
  .describe(
    "Which signals to use. 'hybrid' fuses BM25 and embeddings with measured weights (falls back to lexical when no embedder is configured).",
  );

const Query = z.string().trim().min(1).max(limits.maxQueryChars);

export const RecallRequest = z
  .strictObject({
    query: Query.describe("What to look for, in natural language or keywords."),
    k: z.number().int().min(1).max(limits.maxK).default(limits.defaultK).describe(`How many hits (1-${limits.maxK}).`),
    filters: RecallFilters.optional(),
    asked_at: AskedAt,
    mode: RetrievalMode.default("hybrid"),
    explain: z.boolean().default(false).describe("Add per-hit signal contributions in 'explain'."),
  })
  .describe("Hybrid retrieval over the workspace vault; every hit is a Citation.");
export type RecallRequest = z.input<typeof RecallRequest>;

export const SignalExplain = z.object({
  bm25: z.number().describe("Raw BM25 score (0 when the chunk matched no query term)."),
  lexical: z.number().describe("BM25 divided by the query's maximum attainable BM25, in [0, 1]."),
  lexical_rank: z.number().int().nullable(),
  dense: z.number().nullable().describe("Cosine similarity of query and chunk embeddings; null when no embedder."),
  dense_rank: z.number().int().nullable(),
  contributions: z
    .record(z.string(), z.number())
    .describe(
      "Each term of the calibrated logit; they sum to logit(score). Base logit (orders the hits): lexical and dense (weight x signal) and bias. " +
        "Query-relative calibration: gap (weight x (base logit - the query's best base logit)), query_best (weight x that best base logit), " +
        "rank (weight x ln of the hit's rank by base logit among the query's candidates) and calibration_bias. " +
        "expansion: the query-expansion terms' weighted BM25 share (when manas expanded the query); layers: the logit change the cognitive layers made (demotions, boosts); " +
        "thread: the lift a hybrid hit got for being the turn just before or after a stronger hit in its conversation (that hit's base logit less one); " +
        "speaker: the lift a hybrid hit got for being a turn of the speaker the query names; " +
        "session: the logit a hybrid hit lost because the best candidate of its conversation session is below the query's best session's; " +
        "soft: the query words a hit lacks but has a near word of by meaning (soft term matching, when on), weighted on the query's BM25 scale; " +
        "time: the base-logit lift for being about a time the query names; " +
        "current: for a question about a value's present state, the base-logit change that ranks the statements of that value newest first in the places they held; " +
        "superseded: the logit taken from a statement a later one replaced (see the hit's superseded_by).",
    ),
  score: z.number().min(0).max(1).describe("Calibrated P(relevant): sigmoid of the sum of contributions."),
});

export const RecallResponse = z.object({
  query: z.string(),
  mode: RetrievalMode,
  hits: z
    .array(Citation)
    .describe("Best first. Identical texts from several sources collapse into the first-ingested one."),
  explain: z.array(SignalExplain).optional().describe("Present when explain=true; explain[i] belongs to hits[i]."),
  notes: RequestNotes,
  took_ms: z.number(),
});
export type RecallResponse = z.infer<typeof RecallResponse>;

export const ForgetRequest = z
  .union(
    [
      z.strictObject({ source_path: SourcePath.describe("Forget every chunk of this source.") }),
      z.strictObject({ chunk_hash: ChunkHash.describe("Forget every chunk with this content hash.") }),
    ],
    { error: "give exactly one of source_path or chunk_hash" },
  )
  .describe(
    "Unindex by source_path or chunk_hash (exactly one). Idempotent: repeating it returns 200 and reports nothing removed.",
  );
export type ForgetRequest = z.infer<typeof ForgetRequest>;

export const ForgetResponse = z.object({
  removed: z
    .array(ChunkRef.extend({ source_path: z.string() }))
    .describe("Chunks removed by this call (empty on a repeat)."),
  removed_sources: z.array(z.string()).describe("Sources that no longer have any chunk."),
  already_forgotten: z.boolean().describe("True when the target was forgotten earlier and nothing was left to remove."),
});
export type ForgetResponse = z.infer<typeof ForgetResponse>;

export const PackRequest = z
  .strictObject({
    intent: Query.describe("What the context is for; drives relevance."),
    budget_tokens: z
      .number()
      .int()
      .min(limits.minPackBudgetTokens)
      .max(limits.maxPackBudgetTokens)
      .default(limits.defaultPackBudgetTokens)
      .describe(
        `Hard token budget for items plus summaries (default ${limits.defaultPackBudgetTokens}, max ${limits.maxPackBudgetTokens}). Tokens are estimated, see README.`,
      ),
    max_items: z
      .number()
      .int()
      .min(1)
      .max(limits.maxPackItems)
      .default(limits.defaultPackItems)
      .describe(`Item cap (default ${limits.defaultPackItems}, max ${limits.maxPackItems}).`),
    diversity: z
      .number()
      .min(0)
      .max(1)
      .default(0.3)
      .describe(
        "MMR trade-off: 0 = pure relevance, 1 = pure novelty. Applied by the dhyana cognitive layer, which is off by default (measured to lower evidence recall; see docs/cognitive.md).",
      ),
    filters: RecallFilters.optional(),
    asked_at: AskedAt,
  })
  .describe("Build a bounded, de-duplicated, reading-ordered ContextPack for an intent.");
export type PackRequest = z.input<typeof PackRequest>;

export const PackItem = z.object({
  citation: Citation,
  tokens: z.number().int().describe("Estimated tokens of citation.text_span."),
});

export const PackSource = z.object({
  source_path: z.string(),
  summary: z.string().describe("One extractive sentence from this source's items that best matches the intent."),
  citation: Citation.describe("Where the summary sentence is, with the sentence as text_span."),
});

export const PackResponse = z.object({
  intent: z.string(),
  budget_tokens: z.number().int(),
  used_tokens: z.number().int().describe("Estimated tokens of all items and summaries; never above budget_tokens."),
  items: z
    .array(PackItem)
    .describe("Grouped by source (most relevant source first), in document order within a source."),
  sources: z.array(PackSource),
  dropped: z.object({
    near_duplicates: z.number().int(),
    over_budget: z.number().int(),
  }),
  notes: RequestNotes,
});
export type PackResponse = z.infer<typeof PackResponse>;

export const SourceRequest = z.strictObject({ source_path: SourcePath.describe("The source_path a citation names.") });
export type SourceRequest = z.infer<typeof SourceRequest>;

export const SourceResponse = z
  .object({
    source_path: z.string(),
    document_hash: ChunkHash,
    kind: DocumentKind,
    ingested_at: z.iso.datetime(),
    occurred_at: z.iso.datetime().describe("The document's event time (see IngestRequest.occurred_at)."),
    content: z.string().describe("The stored source text: every citation's text_span is a substring of it."),
    chunks: z
      .array(ChunkRef.extend({ start: z.number().int().min(0), end: z.number().int().min(0) }))
      .describe("Its chunks in order: content.slice(start, end) is the chunk's text."),
  })
  .describe(
    "A stored source with its chunk boundaries, so a caller can check a citation against the text it came from.",
  );
export type SourceResponse = z.infer<typeof SourceResponse>;
