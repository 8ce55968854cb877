// The knowledge lifecycle (SPEC "Knowledge lifecycle"): capture (shravan) -> reflect (manan) -> practice (nididhyasan), plus governed memory proposals.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { DocumentText } from "./memory.ts";
import { SupersessionFields } from "./supersession.ts";

const Score = z.number().min(0).max(1);
const RecordId = (prefix: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z]+_[0-9a-f]+$/, `an id such as ${prefix}_0123abcd...`)
    .describe(`A ${prefix}_... id of this workspace.`);

export const SourceType = z
  .enum([
    "article",
    "book",
    "paper",
    "documentation",
    "conversation",
    "meeting",
    "note",
    "code",
    "video",
    "podcast",
    "web",
    "other",
  ])
  .describe("What kind of source the content came from.");

export const Authority = z
  .enum(["primary", "official", "expert", "peer", "community", "anecdotal", "unknown"])
  .describe(
    "How authoritative the source is: primary (first-hand record or original data), official (standard, vendor or policy document), expert (a recognised specialist), " +
      "peer (a colleague or team), community (forum, blog, Q&A), anecdotal (hearsay), unknown.",
  );

export const MaturityLevel = z.enum(["captured", "reflected", "practiced"]);

export const KnowledgeMaturity = z
  .number()
  .min(0)
  .max(1)
  .describe(
    "Knowledge maturity in [0, 1] = (stage + quality) / 3 with stage 0 captured, 1 reflected, 2 practiced and quality = (trust_score + relevance_score) / 2 of the capture, " +
      "so captured knowledge scores 0-0.33, reflected 0.33-0.67 and practiced 0.67-1, and within a stage better-sourced knowledge scores higher.",
  );

export const NextStage = z
  .enum(["manan", "nididhyasan"])
  .nullable()
  .describe("The lifecycle route to call next (null once practiced).");

export const ShravanRequest = z
  .strictObject({
    content: DocumentText.describe("The text captured; it is stored in the vault and indexed like any ingest."),
    source_type: SourceType,
    source_title: z.string().trim().min(1).max(300),
    authority: Authority,
    trust_score: Score.describe("How far the source can be trusted, 0-1."),
    relevance_score: Score.describe("How relevant it is to this workspace's work, 0-1."),
    lineage: z
      .strictObject({
        origin: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .optional()
          .describe("Where it came from: a URL, a path, or 'conversation with X'."),
        parent_ids: z
          .array(RecordId("shravan"))
          .max(20)
          .default([])
          .describe("Earlier captures (shravan_...) this one builds on; each must exist in this workspace."),
      })
      .default({ parent_ids: [] }),
    questions: z
      .array(z.string().trim().min(1).max(500))
      .max(20)
      .default([])
      .describe("Open questions the capture raises, carried into reflection."),
    citation: z
      .strictObject({
        url: z.url().max(2000).optional(),
        locator: z.string().trim().min(1).max(300).optional().describe("Page, section or timestamp inside the source."),
        quote: z.string().trim().min(1).max(2000).optional().describe("The passage of the original being cited."),
      })
      .optional()
      .describe("How to cite the original source outside this service."),
    supersedes: RecordId("shravan")
      .optional()
      .describe(
        "An earlier capture (shravan_...) this one replaces, e.g. a newer edition of the same source: it must be a capture of this workspace not already " +
          "superseded (else 422 supersedes_not_found or 409 already_superseded, and nothing is written). It is kept, marked superseded_by this one.",
      ),
  })
  .describe("Capture content with its provenance. Sending the same capture again returns the same record.");
export type ShravanRequest = z.input<typeof ShravanRequest>;

const StageCommon = {
  id: z.string(),
  maturity_level: MaturityLevel,
  knowledge_maturity: KnowledgeMaturity,
  next_stage: NextStage,
  created_at: z.iso.datetime(),
  created_by: z.string().nullable().describe("x-svc-actor-id of the caller, when sent."),
  citations: z.array(Citation).min(1).describe("Where this record's knowledge is stored in the vault."),
};

export const ShravanRecord = z.object({
  ...StageCommon,
  stage: z.literal("shravan"),
  source_type: SourceType,
  source_title: z.string(),
  authority: Authority,
  trust_score: Score,
  relevance_score: Score,
  lineage: z.object({ origin: z.string().nullable(), parent_ids: z.array(z.string()) }),
  questions: z.array(z.string()),
  citation: z
    .object({ url: z.string().optional(), locator: z.string().optional(), quote: z.string().optional() })
    .nullable(),
  source_path: z.string().describe("Vault path of the captured content (knowledge/shravan/<id>.md)."),
  ...SupersessionFields("capture"),
});
export type ShravanRecord = z.infer<typeof ShravanRecord>;

export const MananRequest = z.strictObject({ shravan_id: RecordId("shravan") }).describe("Reflect on a capture.");
export type MananRequest = z.input<typeof MananRequest>;

const Cited = z.object({ text: z.string().describe("A literal sentence of the cited passage."), citation: Citation });

export const MananRecord = z.object({
  ...StageCommon,
  stage: z.literal("manan"),
  shravan_id: z.string(),
  source_title: z.string().describe("The capture's source_title."),
  claims: z
    .array(Cited)
    .describe(
      "Declarative sentences of the capture that are not questions, principles or counterpoints (at least one: the first sentence when nothing else qualifies).",
    ),
  questions: z
    .array(z.object({ text: z.string(), origin: z.enum(["content", "capture"]), citation: Citation.nullable() }))
    .describe(
      "Sentences of the capture ending in '?' (cited), then the capture's own questions (origin 'capture', no citation).",
    ),
  counterpoints: z
    .array(
      Cited.extend({
        origin: z
          .enum(["content", "vault"])
          .describe("'content': a contrasting sentence of the capture itself; 'vault': another stored passage."),
        claim_index: z
          .number()
          .int()
          .nullable()
          .describe("The claim it qualifies (index into claims); null for in-content contrasts."),
        reason: z
          .enum(["contrast", "negation", "different_number"])
          .describe(
            "contrast: a 'however/but/although/unless'-type sentence; negation: it states the claim's words with the opposite polarity; different_number: same subject, another figure.",
          ),
      }),
    )
    .describe(
      "Sentences that contradict or qualify the claims: contrast sentences of the capture, and sentences of other vault sources that share most of a claim's content words but negate it, contrast with it, or give a different figure.",
    ),
  principles: z
    .array(Cited)
    .describe("Normative sentences: should/must/always/never/avoid/prefer..., or starting with an imperative verb."),
});
export type MananRecord = z.infer<typeof MananRecord>;

export const ImplementationType = z.enum(["habit", "task", "rule", "checklist", "project", "principle"]);

export const NididhyasanRequest = z
  .strictObject({
    manan_id: RecordId("manan"),
    implementation_type: ImplementationType,
    propose_memory: z
      .boolean()
      .default(false)
      .describe(
        "Queue the artefact as a long-term-memory proposal; it reaches the vault only when a reviewer approves it.",
      ),
  })
  .describe("Turn a reflection into a habit, task, rule, checklist, project or principle.");
export type NididhyasanRequest = z.input<typeof NididhyasanRequest>;

export const ArtefactItem = z.object({
  kind: z.enum(["statement", "support", "caveat", "step", "check", "cue", "resolve"]),
  text: z.string(),
  citation: Citation.nullable().describe(
    "The reflected sentence it comes from; null for a question given at capture and for a habit's cue (written from the source title).",
  ),
});

export const Artefact = z.object({
  type: ImplementationType,
  title: z.string(),
  cadence: z
    .string()
    .nullable()
    .describe(
      "Habits: a cadence stated in the principle (daily, weekly, every sprint...), else 'daily'. Null for other types.",
    ),
  items: z.array(ArtefactItem).min(1),
});
export type Artefact = z.infer<typeof Artefact>;

export const ProposalStatus = z.enum(["pending", "approved", "rejected"]);

export const Proposal = z.object({
  id: z.string().describe("proposal_..."),
  nididhyasan_id: z.string(),
  status: ProposalStatus,
  target_source_path: z.string().describe("Where the artefact is stored in the vault once approved."),
  content: z.string().describe("The markdown that approval stores."),
  proposed_at: z.iso.datetime(),
  proposed_by: z.string().nullable(),
  reviewed_at: z.iso.datetime().nullable(),
  reviewed_by: z.string().nullable(),
  note: z.string().nullable(),
  citations: z.array(Citation).min(1),
});
export type Proposal = z.infer<typeof Proposal>;

export const NididhyasanRecord = z.object({
  ...StageCommon,
  stage: z.literal("nididhyasan"),
  manan_id: z.string(),
  shravan_id: z.string(),
  source_title: z.string().describe("The capture's source_title."),
  implementation_type: ImplementationType,
  artefact: Artefact,
  proposal: z
    .object({ id: z.string(), status: ProposalStatus })
    .nullable()
    .describe("The memory proposal queued with propose_memory (its status as of this response)."),
});
export type NididhyasanRecord = z.infer<typeof NididhyasanRecord>;

const Paging = {
  limit: z.coerce.number().int().min(1).max(200).default(20).describe("Records per page (1-200)."),
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page."),
};

export const RecordSummary = z.object({
  id: z.string(),
  stage: z.enum(["shravan", "manan", "nididhyasan"]),
  maturity_level: MaturityLevel,
  knowledge_maturity: KnowledgeMaturity,
  title: z.string().describe("The capture's source_title."),
  created_at: z.iso.datetime(),
  next_stage: NextStage,
  citations: z.array(Citation).min(1),
});

export const KnowledgeStatusRequest = z.strictObject(Paging).describe("Maturity counts and the most recent records.");
export type KnowledgeStatusRequest = z.input<typeof KnowledgeStatusRequest>;

export const KnowledgeStatusResponse = z.object({
  counts: z
    .object({ captured: z.number().int(), reflected: z.number().int(), practiced: z.number().int() })
    .describe("Records per stage."),
  awaiting: z
    .object({ reflection: z.number().int(), practice: z.number().int() })
    .describe("Captures not yet reflected on; reflections not yet practiced."),
  proposals: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  recent: z.array(RecordSummary).describe("Newest first."),
  next_cursor: z.string().nullable(),
});
export type KnowledgeStatusResponse = z.infer<typeof KnowledgeStatusResponse>;

export const KnowledgeReviewRequest = z
  .strictObject({
    ...Paging,
    needs: z
      .enum(["reflection", "practice"])
      .optional()
      .describe("Only captures awaiting reflection, or only reflections awaiting practice."),
  })
  .describe("The queue of captured knowledge that still needs reflection or practice, oldest first.");
export type KnowledgeReviewRequest = z.input<typeof KnowledgeReviewRequest>;

export const KnowledgeReviewResponse = z.object({
  items: z
    .array(RecordSummary.extend({ needs: z.enum(["reflection", "practice"]) }))
    .describe("Oldest first: work the queue from the top."),
  next_cursor: z.string().nullable(),
});
export type KnowledgeReviewResponse = z.infer<typeof KnowledgeReviewResponse>;

export const ProposalListRequest = z
  .strictObject({ ...Paging, status: ProposalStatus.optional() })
  .describe("Memory proposals, oldest first.");
export type ProposalListRequest = z.input<typeof ProposalListRequest>;

export const ProposalListResponse = z.object({ proposals: z.array(Proposal), next_cursor: z.string().nullable() });
export type ProposalListResponse = z.infer<typeof ProposalListResponse>;

export const ProposalReviewRequest = z
  .strictObject({
    proposal_id: RecordId("proposal"),
    verdict: z.enum(["approve", "reject"]),
    note: z.string().trim().min(1).max(2000).optional().describe("Why; kept on the proposal and in the audit event."),
  })
  .describe(
    "Approve (store the artefact in the vault) or reject a pending memory proposal. Needs an x-svc-actor-id naming the reviewer, who must not be the proposer.",
  );
export type ProposalReviewRequest = z.input<typeof ProposalReviewRequest>;
