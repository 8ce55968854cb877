// Open loops (issues 4 and 40): markers, open questions, unchecked boxes and items of loop sections across the workspace's stored documents.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { limits } from "./limits.ts";

export const OpenLoopsRequest = z
  .strictObject({
    source_path_prefix: z
      .string()
      .max(limits.maxSourcePathChars)
      .optional()
      .describe("Only sources whose path starts with this."),
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Loops per page (1-1000, default 100)."),
    cursor: z.string().max(2000).optional().describe("next_cursor of the previous page."),
  })
  .describe(
    'List what is still open in this workspace\'s memory: TODO/TBD/FIXME/OPENLOOP markers, "Open question:" and "unresolved" lines, unchecked \'- [ ]\' boxes, and items or questions under headings like Open questions, Next steps or Risks.',
  );
export type OpenLoopsRequest = z.input<typeof OpenLoopsRequest>;

export const OpenLoop = z.object({
  source_path: z.string(),
  line: z.number().int().min(1).describe("1-based line of the marker in the stored source."),
  marker: z
    .enum(["TODO", "OPENLOOP", "TBD", "FIXME", "QUESTION", "UNRESOLVED", "CHECKBOX", "SECTION"])
    .describe(
      "Why the line is open: an uppercase marker; QUESTION an 'Open question:' line or a question under a loop heading; UNRESOLVED 'unresolved'/'undecided'/'still open'; CHECKBOX an unchecked '- [ ]'; SECTION an item under Open questions / Next steps / Action items.",
    ),
  text: z.string().describe("The whole line, trimmed: a literal substring of the source."),
  owner: z
    .string()
    .nullable()
    .describe(
      "Who the line names as owner (@handle, 'owner: Name', 'Name to ...', 'TODO(name)', a trailing '(Name)'), else null.",
    ),
  due: z
    .string()
    .nullable()
    .describe("The due date as written ('by Friday', 'due 2024-05-01', 'before end of sprint'), else null."),
  citation: Citation.describe("The stored chunk holding the line, narrowed to it (text_span = text), score 1."),
});
export type OpenLoop = z.infer<typeof OpenLoop>;

export const OpenLoopsResponse = z.object({
  loops: z
    .array(OpenLoop)
    .describe(
      "By source_path, then line. Checked boxes ('- [x]'), struck-through lines and lines marked DONE, RESOLVED or '(resolved)' are resolved and never listed; forgotten sources have no loops.",
    ),
  truncated: z.boolean().describe("True when more loops follow this page (then next_cursor is set)."),
  next_cursor: z
    .string()
    .nullable()
    .describe(
      "Pass as cursor for the next page (it resumes after this page's last source_path and line); null at the end.",
    ),
});
export type OpenLoopsResponse = z.infer<typeof OpenLoopsResponse>;
