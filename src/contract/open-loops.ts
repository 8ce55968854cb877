// Open loops (issue 4): unresolved TODO / OPENLOOP markers across the workspace's stored documents.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { limits } from "./limits.ts";

export const OpenLoopsRequest = z
  .strictObject({
    source_path_prefix: z.string().max(limits.maxSourcePathChars).optional().describe("Only sources whose path starts with this."),
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Loops per page (1-1000, default 100)."),
    cursor: z.string().max(2000).optional().describe("next_cursor of the previous page."),
  })
  .describe("List unresolved TODO and OPENLOOP markers in this workspace's memory.");
export type OpenLoopsRequest = z.input<typeof OpenLoopsRequest>;

export const OpenLoop = z.object({
  source_path: z.string(),
  line: z.number().int().min(1).describe("1-based line of the marker in the stored source."),
  marker: z.enum(["TODO", "OPENLOOP"]).describe("Which marker the line carries."),
  text: z.string().describe("The whole line, trimmed: a literal substring of the source."),
  citation: Citation.describe("The stored chunk holding the line, narrowed to it (text_span = text), score 1."),
});
export type OpenLoop = z.infer<typeof OpenLoop>;

export const OpenLoopsResponse = z.object({
  loops: z.array(OpenLoop).describe("By source_path, then line. Checked boxes ('- [x]') and lines marked DONE are resolved and never listed; forgotten sources have no loops."),
  truncated: z.boolean().describe("True when more loops follow this page (then next_cursor is set)."),
  next_cursor: z.string().nullable().describe("Pass as cursor for the next page (it resumes after this page's last source_path and line); null at the end."),
});
export type OpenLoopsResponse = z.infer<typeof OpenLoopsResponse>;
