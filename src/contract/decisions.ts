// Decision extraction (issue 4): parse ADR/MADR, Nygard and free-form decisions out of markdown without storing anything.
import { z } from "zod";
import { ChunkHash, Citation } from "./citation.ts";
import { DocumentText, SourcePath } from "./memory.ts";
import { SupersessionFields } from "./supersession.ts";

export const DecisionExtractRequest = z
  .strictObject({
    content: DocumentText.describe(
      "Markdown to read: an ADR (MADR or Nygard/adr-tools style), meeting notes, or any note with 'we decided to ...' / 'Decision: ...' lines.",
    ),
    source_path: SourcePath.optional().describe(
      "Where the markdown lives, copied into every citation. Omit for loose text: citations use 'text/<first 12 hex of the content hash>'.",
    ),
  })
  .describe("Extract decisions from markdown. Nothing is written to memory.");
export type DecisionExtractRequest = z.infer<typeof DecisionExtractRequest>;

export const DecisionStyle = z
  .enum(["madr", "nygard", "freeform"])
  .describe(
    "How the decision was written: 'madr' (Decision Outcome / Chosen option), 'nygard' (Status / Context / Decision / Consequences sections), 'freeform' (a 'we decided' or 'Decision:' line).",
  );

export const DecisionField = z.enum(["title", "status", "date", "context", "decision", "consequences", "options"]);

export const ExtractedDecision = z.object({
  style: DecisionStyle,
  title: z
    .string()
    .describe(
      "The ADR's H1 without a leading number ('2. Use X' -> 'Use X'); for free-form lines, the decision sentence itself.",
    ),
  status: z
    .string()
    .nullable()
    .describe(
      "Lower-cased status as written (e.g. 'accepted', 'proposed', 'superseded by ...', 'on hold'), from a Status section, a 'Status:' line or YAML front matter; null when the source states none.",
    ),
  date: z
    .string()
    .nullable()
    .describe(
      "The date as written ('Date:' line, front matter 'date:', or a YYYY-MM-DD on a free-form line); null when absent.",
    ),
  context: z
    .string()
    .nullable()
    .describe("Body of the Context (or 'Context and Problem Statement') section; null when absent."),
  decision: z
    .string()
    .describe(
      "Body of the Decision / Decision Outcome section (up to the next heading), or the free-form decision sentence.",
    ),
  chosen_option: z
    .string()
    .nullable()
    .describe("MADR only: the option named on the 'Chosen option: \"...\"' line; null otherwise."),
  consequences: z.string().nullable().describe("Body of a Consequences section (any heading level); null when absent."),
  options: z.array(z.string()).describe("List items of the 'Considered Options' section, in order; empty when absent."),
  supersedes: z
    .string()
    .nullable()
    .describe(
      "What a 'Supersedes ...' line of the Status names: the link target ('0002-use-x.md') or, without a link, the words; null when none. Record it with POST /v1/decisions' supersedes to link stored decisions.",
    ),
  superseded_by: z
    .string()
    .nullable()
    .describe("What a 'Superseded by ...' status names: the link target or the words; null when none."),
  citations: z
    .array(Citation.extend({ field: DecisionField.describe("Which field this span supports.") }))
    .describe(
      "One per field found: text_span is the literal substring of the submitted content, anchor its heading path (or L<a>-L<b> outside any heading), chunk_hash the hash of the span, score 1.",
    ),
});
export type ExtractedDecision = z.infer<typeof ExtractedDecision>;

export const DecisionExtractResponse = z.object({
  source_path: z.string(),
  decisions: z
    .array(ExtractedDecision)
    .describe("In document order; empty (not an error) when the markdown records no decision."),
});
export type DecisionExtractResponse = z.infer<typeof DecisionExtractResponse>;

// Stored decisions: record (idempotent), list by namespace with stable cursor paging, fetch by ref.
export const Namespace = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._/-]{0,63}$/, "lowercase letters, digits and . _ / -, at most 64 characters")
  .describe("Groups decisions (a team, service or project), e.g. 'payments' or 'platform/storage'.");

export const DecisionRef = z
  .string()
  .regex(/^dec_[0-9a-f]{20}$/, "a decision ref looks like dec_ followed by 20 hex digits")
  .describe("A decision's ref (dec_...).");

export const DecisionRecordRequest = z
  .strictObject({
    namespace: Namespace.default("default"),
    title: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe("Short name of the decision, e.g. 'Use PostgreSQL for the ledger'."),
    decision: z.string().trim().min(1).max(20_000).describe("What was decided."),
    status: z
      .string()
      .trim()
      .toLowerCase()
      .min(1)
      .max(100)
      .default("accepted")
      .describe("Lower-cased on storage: proposed, accepted, rejected, deprecated, superseded by ..."),
    date: z.iso.date().optional().describe("When it was decided (YYYY-MM-DD)."),
    context: z.string().trim().min(1).max(20_000).optional().describe("The forces and the problem."),
    consequences: z.string().trim().min(1).max(20_000).optional(),
    options: z.array(z.string().trim().min(1).max(500)).max(50).default([]).describe("Options that were considered."),
    chosen_option: z.string().trim().min(1).max(500).optional(),
    evidence: z
      .array(ChunkHash)
      .max(50)
      .default([])
      .describe(
        "chunk_hash values (from citations) of stored passages the decision rests on; each must exist in this workspace.",
      ),
    supersedes: DecisionRef.optional().describe(
      "The ref of an earlier decision this one replaces (as an ADR's 'Supersedes'): it must be a decision of this workspace not already superseded " +
        "(else 422 supersedes_not_found or 409 already_superseded, and nothing is written). It is kept, marked superseded_by this one.",
    ),
  })
  .describe(
    "Record a decision. The ref is derived from the content, so sending the same decision again returns the same record and writes nothing.",
  );
export type DecisionRecordRequest = z.input<typeof DecisionRecordRequest>;

export const DecisionRecord = z.object({
  ref: DecisionRef,
  namespace: z.string(),
  title: z.string(),
  status: z.string(),
  date: z.string().nullable(),
  context: z.string().nullable(),
  decision: z.string(),
  chosen_option: z.string().nullable(),
  consequences: z.string().nullable(),
  options: z.array(z.string()),
  recorded_at: z.iso.datetime(),
  recorded_by: z.string().nullable().describe("x-svc-actor-id of the first recording, when one was sent."),
  ...SupersessionFields("decision"),
  source_path: z
    .string()
    .describe(
      "Where the decision is stored in the vault as an ADR-style markdown note (decisions/<namespace>/<ref>.md): recall and decision extraction find it there.",
    ),
  citations: z
    .array(Citation)
    .min(1)
    .describe(
      "The stored note's chunks, then one citation per evidence chunk_hash (score 1); all point at text stored in this workspace.",
    ),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;

export const DecisionListRequest = z
  .strictObject({
    namespace: Namespace.optional().describe("Only this namespace."),
    limit: z.coerce.number().int().min(1).max(200).default(50).describe("Records per page (1-200)."),
    cursor: z
      .string()
      .max(200)
      .optional()
      .describe(
        "next_cursor of the previous page. Newest first; decisions recorded while you page never shift or repeat a page.",
      ),
  })
  .describe("List stored decisions, newest first.");
export type DecisionListRequest = z.input<typeof DecisionListRequest>;

export const DecisionListResponse = z.object({
  decisions: z.array(DecisionRecord),
  next_cursor: z.string().nullable().describe("Pass as cursor for the next (older) page; null at the end."),
});
export type DecisionListResponse = z.infer<typeof DecisionListResponse>;

export const DecisionGetRequest = z.strictObject({ ref: DecisionRef }).describe("Fetch one stored decision by ref.");
export type DecisionGetRequest = z.input<typeof DecisionGetRequest>;
