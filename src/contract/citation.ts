// The Citation resource (SPEC "Citation"): what every memory-bearing response carries.
import { z } from "zod";
import { TimeMention } from "./time.ts";

export const ChunkHash = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: followed by 64 lowercase hex digits")
  .describe("Content address: sha256: + hex SHA-256 of the normalized chunk text (see README 'Citations').");

/** An event time as the API takes it: ISO 8601 with a Z or an offset ("2023-05-08T13:56:00+02:00"). */
export const OccurredAt = z.iso.datetime({ offset: true });

/** One side of a replacement: the other statement, where it is stored, and when the earlier one stopped being current. */
export const SupersessionRef = z
  .object({
    source_path: z.string().describe("Where the other statement is stored."),
    record_id: z
      .string()
      .optional()
      .describe("The knowledge record (dec_..., shravan_...) when the replacement was recorded explicitly."),
    chunk_hash: ChunkHash.optional().describe("The other statement's chunk, when it was detected in conversation."),
    at: z.iso.datetime().describe("When the earlier statement stopped being current (UTC)."),
    detected: z
      .boolean()
      .describe("False: recorded explicitly (a record's supersedes); true: found by comparing statements in recall."),
  })
  .describe("A link between a statement and the one that replaced it (issue 45).");
export type SupersessionRef = z.infer<typeof SupersessionRef>;

export const Citation = z
  .object({
    chunk_hash: ChunkHash,
    source_path: z.string().describe("Where the evidence came from, as given at ingest."),
    anchor: z
      .string()
      .describe("Location inside the source: the heading path for markdown, 'L<a>-L<b>' line range for code and text."),
    text_span: z.string().describe("The literal evidence text, an exact substring of the stored source."),
    score: z
      .number()
      .min(0)
      .max(1)
      .describe("Calibrated relevance in [0, 1]: roughly the probability the chunk is relevant; safe to threshold."),
    retrieved_at: z.iso.datetime().describe("ISO 8601 UTC time the citation was produced."),
    occurred_at: z.iso
      .datetime()
      .optional()
      .describe("When what the evidence says happened or was said (UTC); absent for spans the service composed."),
    times: z
      .array(TimeMention)
      .optional()
      .describe("Time expressions in text_span resolved against occurred_at (grounded answers carry them)."),
    superseded_by: SupersessionRef.optional().describe(
      "Present when a later statement replaced this one (as of the request's as_of, else now): recall ranks it below what is current.",
    ),
    supersedes: SupersessionRef.optional().describe("Present when this statement replaced an earlier one."),
  })
  .describe("A verifiable pointer to stored evidence.");
export type Citation = z.infer<typeof Citation>;
