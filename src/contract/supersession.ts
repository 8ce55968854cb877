// A knowledge record's place in a chain of replacements (issue 45): what it replaced and what replaced it.
import { z } from "zod";

/** The three fields every supersedable record carries; null when there is no such link. */
export const SupersessionFields = (kind: string) => ({
  supersedes: z.string().nullable().describe(`The earlier ${kind} this one replaced; null when none.`),
  superseded_by: z.string().nullable().describe(`The later ${kind} that replaced this one; null while it is current.`),
  superseded_at: z.iso.datetime().nullable().describe("When it stopped being current; null while it is current."),
});

/** A stored body as the API returns it: records written before supersession existed read as never superseded. */
export function withSupersession<T extends object>(
  body: T,
): T & { supersedes: string | null; superseded_by: string | null; superseded_at: string | null } {
  return { supersedes: null, superseded_by: null, superseded_at: null, ...body };
}
