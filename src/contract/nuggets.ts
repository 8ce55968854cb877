// Grounded eval: score an agent's output against expected nuggets, and check the citations it carries.
import { z } from "zod";
import { ChunkHash } from "./citation.ts";

export const Nugget = z.strictObject({
  text: z.string().trim().min(1).max(1000).describe("A fact the output should state."),
  importance: z.enum(["vital", "okay"]).default("vital").describe("vital facts weigh 1, okay facts 0.5."),
});

export const GroundedEvalRequest = z
  .strictObject({
    output: z.string().min(1).max(200_000).describe("The agent's answer text."),
    nuggets: z.array(Nugget).min(1).max(200),
    citations: z
      .array(
        z.strictObject({
          chunk_hash: ChunkHash,
          text_span: z.string().min(1).max(20_000),
          claim: z
            .string()
            .max(5_000)
            .optional()
            .describe("The output sentence that cites this; defaults to the best-matching output sentence."),
        }),
      )
      .max(200)
      .optional()
      .describe("Citations the output carries; each is checked against the vault."),
  })
  .describe("Score an output against expected nuggets (TREC RAG style), deterministically.");
export type GroundedEvalRequest = z.input<typeof GroundedEvalRequest>;

export const GroundedEvalResponse = z.object({
  nuggets: z.array(
    z.object({
      text: z.string(),
      importance: z.enum(["vital", "okay"]),
      support: z.enum(["supported", "partial", "not_supported"]),
      coverage: z.number().min(0).max(1),
      matching_span: z.string().nullable().describe("The output text that matched best."),
      why: z.string(),
    }),
  ),
  nugget_recall: z.number().describe("(supported + 0.5 x partial) / nuggets."),
  strict_recall: z.number().describe("supported / nuggets."),
  vital_recall: z.number().describe("nugget_recall over vital nuggets only (1 when there are none)."),
  weighted_score: z
    .number()
    .describe("sum(weight x support value) / sum(weight); vital 1, okay 0.5; supported 1, partial 0.5."),
  citations: z.array(
    z.object({
      chunk_hash: z.string(),
      exists: z.boolean().describe("A chunk with this hash is in the vault and contains text_span literally."),
      supports: z.boolean().describe("text_span contains at least half the terms of the claim citing it."),
      support_ratio: z.number(),
      claim: z.string().nullable(),
    }),
  ),
  citation_precision: z
    .number()
    .nullable()
    .describe("Share of citations that exist and support their claim; null without citations."),
});
export type GroundedEvalResponse = z.infer<typeof GroundedEvalResponse>;
