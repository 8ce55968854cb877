// Decision extraction (issue 4): parse ADR/MADR, Nygard and free-form decisions out of markdown without storing anything.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { DocumentText, SourcePath } from "./memory.ts";

export const DecisionExtractRequest = z
  .strictObject({
    content: DocumentText.describe("Markdown to read: an ADR (MADR or Nygard/adr-tools style), meeting notes, or any note with 'we decided to ...' / 'Decision: ...' lines."),
    source_path: SourcePath.optional().describe("Where the markdown lives, copied into every citation. Omit for loose text: citations use 'text/<first 12 hex of the content hash>'."),
  })
  .describe("Extract decisions from markdown. Nothing is written to memory.");
export type DecisionExtractRequest = z.infer<typeof DecisionExtractRequest>;

export const DecisionStyle = z
  .enum(["madr", "nygard", "freeform"])
  .describe("How the decision was written: 'madr' (Decision Outcome / Chosen option), 'nygard' (Status / Context / Decision / Consequences sections), 'freeform' (a 'we decided' or 'Decision:' line).");

export const DecisionField = z.enum(["title", "status", "date", "context", "decision", "consequences", "options"]);

export const ExtractedDecision = z.object({
  style: DecisionStyle,
  title: z.string().describe("The ADR's H1 without a leading number ('2. Use X' -> 'Use X'); for free-form lines, the decision sentence itself."),
  status: z.string().nullable().describe("Lower-cased status as written (e.g. 'accepted', 'proposed', 'superseded by ...', 'on hold'), from a Status section, a 'Status:' line or YAML front matter; null when the source states none."),
  date: z.string().nullable().describe("The date as written ('Date:' line, front matter 'date:', or a YYYY-MM-DD on a free-form line); null when absent."),
  context: z.string().nullable().describe("Body of the Context (or 'Context and Problem Statement') section; null when absent."),
  decision: z.string().describe("Body of the Decision / Decision Outcome section (up to the next heading), or the free-form decision sentence."),
  chosen_option: z.string().nullable().describe("MADR only: the option named on the 'Chosen option: \"...\"' line; null otherwise."),
  consequences: z.string().nullable().describe("Body of a Consequences section (any heading level); null when absent."),
  options: z.array(z.string()).describe("List items of the 'Considered Options' section, in order; empty when absent."),
  citations: z
    .array(Citation.extend({ field: DecisionField.describe("Which field this span supports.") }))
    .describe("One per field found: text_span is the literal substring of the submitted content, anchor its heading path (or L<a>-L<b> outside any heading), chunk_hash the hash of the span, score 1."),
});
export type ExtractedDecision = z.infer<typeof ExtractedDecision>;

export const DecisionExtractResponse = z.object({
  source_path: z.string(),
  decisions: z.array(ExtractedDecision).describe("In document order; empty (not an error) when the markdown records no decision."),
});
export type DecisionExtractResponse = z.infer<typeof DecisionExtractResponse>;
