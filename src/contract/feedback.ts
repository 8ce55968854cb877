// POST /v1/memory/feedback: callers report which citations they used or found unhelpful; the karma layer learns from it.
import { z } from "zod";
import { ChunkHash } from "./citation.ts";
import { limits } from "./limits.ts";

export const FeedbackRequest = z
  .strictObject({
    chunk_hashes: z
      .array(ChunkHash)
      .min(1)
      .max(100)
      .describe("chunk_hash values of citations (from recall, pack or an answer) in this workspace."),
    outcome: z
      .enum(["used", "unhelpful"])
      .describe("'used': the citation went into your answer; 'unhelpful': it was retrieved but did not help."),
    trajectory_id: z
      .string()
      .max(100)
      .optional()
      .describe(
        "The grounded answer this is about, kept in the audit event (its question is what the feedback tuner replays); one this workspace never answered is 404 not_found.",
      ),
    query: z
      .string()
      .min(1)
      .max(limits.maxQueryChars)
      .optional()
      .describe(
        "The recall query or pack intent these citations came from, when not an answer's trajectory: the feedback tuner replays it.",
      ),
  })
  .describe(
    "Report outcomes of citations; later retrievals rank used passages up and unhelpful ones down (the karma layer).",
  );
export type FeedbackRequest = z.input<typeof FeedbackRequest>;

export const FeedbackResponse = z.object({
  recorded: z.number().int().describe("How many distinct chunk hashes were recorded."),
  outcome: z.enum(["used", "unhelpful"]),
});
export type FeedbackResponse = z.infer<typeof FeedbackResponse>;
