// A time expression found in evidence and what it resolves to (issue 45): the words stay literal, the period is absolute.
import { z } from "zod";

export const TimeMention = z
  .object({
    text: z.string().describe("The words as written: a substring of the citation's text_span."),
    start: z.number().int().min(0).describe("Where the words start in text_span."),
    end: z.number().int().min(0).describe("Where they end in text_span."),
    granularity: z.enum(["day", "week", "weekend", "month", "year"]),
    resolved: z
      .string()
      .describe("The period in words: '7 May 2023', 'the week before 9 June 2023', 'May 2023', '2022'."),
    from: z.iso.datetime().describe("Start of the resolved period (UTC)."),
    to: z.iso.datetime().describe("End of the resolved period, exclusive (UTC)."),
    reference: z.iso
      .datetime()
      .describe("The event time of the evidence (its occurred_at) that relative words were resolved against."),
    relative: z.boolean().describe("True when the words needed the reference ('yesterday', 'last Friday')."),
  })
  .describe("A time expression in evidence, resolved against when the evidence was said.");
export type TimeMention = z.infer<typeof TimeMention>;
