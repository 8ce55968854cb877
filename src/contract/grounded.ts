// Grounded answers: extractive, every sentence cited, with a replayable trajectory.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { TimeMention } from "./time.ts";
import { limits } from "./limits.ts";
import { AskedAt, RecallFilters, RequestNotes } from "./memory.ts";

export const GroundedAnswerRequest = z
  .strictObject({
    question: z
      .string()
      .trim()
      .min(1)
      .max(limits.maxQueryChars)
      .describe("The question to answer from this workspace's vault only."),
    k: z.number().int().min(1).max(50).default(8).describe("Evidence chunks to consider (1-50)."),
    filters: RecallFilters.optional(),
    asked_at: AskedAt,
    min_confidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "Abstain (422 insufficient_evidence) below this confidence, the probability that the answer is right (default 0.14; 0.9 gives answers right at least 90% of the time on the eval sets).",
      ),
  })
  .describe("Closed-corpus question answering: the answer is extracted from cited evidence, never synthesized.");
export type GroundedAnswerRequest = z.input<typeof GroundedAnswerRequest>;

export const TrajectoryStep = z.object({
  name: z.enum(["retrieve", "score_candidates", "select", "answer", "abstain"]),
  ms: z.number().describe("Wall time of the step."),
  detail: z.record(z.string(), z.unknown()),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

export const GroundedAnswerResponse = z.object({
  question: z.string(),
  answer: z
    .string()
    .describe("The shortest evidence span that answers (a name, date, number) or the best evidence sentence."),
  answer_type: z.enum(["person", "date", "number", "place", "entity", "sentence"]),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      "Probability that the answer is right (token F1 >= 0.5 against a reference answer), calibrated on held-out data; answers below min_confidence are withheld.",
    ),
  citations: z
    .array(Citation)
    .min(1)
    .describe(
      "Sentence-level evidence; citations[0] contains the answer (for a resolved time, the words it was resolved from).",
    ),
  resolved_time: TimeMention.optional().describe(
    "For a when-question answered from a time expression: the words in citations[0] and the absolute period they name, resolved against that evidence's occurred_at.",
  ),
  trajectory_id: z.string().describe("Replay with GET /v1/audit/event_log?trajectory_id=…"),
  notes: RequestNotes,
  steps: z.array(TrajectoryStep),
});
export type GroundedAnswerResponse = z.infer<typeof GroundedAnswerResponse>;

/** details of the 422 insufficient_evidence error. */
export const InsufficientEvidence = z.object({
  trajectory_id: z.string(),
  confidence: z.number(),
  threshold: z.number(),
  rejected: z.array(Citation).describe("The best candidates, which were not good enough."),
  steps: z.array(TrajectoryStep),
});
