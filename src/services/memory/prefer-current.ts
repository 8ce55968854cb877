// Recall prefers what is current (issue 45 item 4): a statement a later one replaced is kept, marked and ranked lower.
import type { SupersessionRef } from "../../contract/citation.ts";
import type { RecordStore, SupersessionLink } from "../../ports/records.ts";
import type { ChunkRecord } from "../../ports/documents.ts";
import type { BaseLift } from "../../search/types.ts";
import { detectReplacements } from "../../domain/time/changed-facts.ts";

/** Logit taken from a superseded candidate (the `superseded` term of explain's contributions). */
export const SUPERSEDED_WEIGHT = -2;

/** What a hit's citation says of replacements, by chunk id. */
export type SupersessionMarks = Map<number, { superseded_by?: SupersessionRef; supersedes?: SupersessionRef }>;

export type SupersessionReader = Pick<RecordStore, "supersessions">;

/**
 * A lift that marks the rows whose note was replaced by `asOf` (or ever, without one) and lowers them on the base
 * logit, where the query's lifts act, so calibration ranks the replacement as the best it now is; marks replacements
 * too (into `marks`). A replacement recorded after `asOf` leaves the old note current, as it was then.
 */
export function preferCurrent(
  reader: SupersessionReader,
  workspaceId: string,
  opts: { asOf: number | undefined; detect: boolean },
): { lift: BaseLift; marks: SupersessionMarks } {
  const marks: SupersessionMarks = new Map();
  const lift: BaseLift = {
    term: "superseded",
    always: true,
    async deltas(rows) {
      const chunks = rows.map((r) => r.chunk);
      const paths = [...new Set(chunks.map((c) => c.sourcePath))];
      const links = (await reader.supersessions(workspaceId, paths)).filter(
        (l) => opts.asOf === undefined || l.at <= opts.asOf,
      );
      const replacedBy = new Map(links.map((l) => [l.oldPath, l]));
      const replacing = new Map(links.map((l) => [l.newPath, l]));
      for (const chunk of chunks) {
        const by = replacedBy.get(chunk.sourcePath);
        const of = replacing.get(chunk.sourcePath);
        if (of) marks.set(chunk.id, { supersedes: recorded(of.oldPath, of.oldId, of) });
        if (by) marks.set(chunk.id, { ...marks.get(chunk.id), superseded_by: recorded(by.newPath, by.newId, by) });
      }
      if (opts.detect) markDetected(chunks.slice(0, DETECT_AMONG), marks);
      // The current-value order already put it below a newer statement of the value: lowering it again would bury it.
      return rows.map((r) =>
        marks.get(r.chunk.id)?.superseded_by && (r.contributions["current"] ?? 0) >= 0 ? SUPERSEDED_WEIGHT : 0,
      );
    },
  };
  return { lift, marks };
}

/** Statements among the best candidates that a later one replaced; a recorded replacement is left as it is. */
function markDetected(chunks: readonly ChunkRecord[], marks: SupersessionMarks): void {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  for (const r of detectReplacements(chunks.map((c) => ({ id: c.id, text: c.text, at: c.authoredAt })))) {
    const [older, newer] = [byId.get(r.oldId)!, byId.get(r.newId)!];
    const at = new Date(newer.authoredAt).toISOString();
    if (!marks.get(older.id)?.superseded_by)
      marks.set(older.id, {
        ...marks.get(older.id),
        superseded_by: { source_path: newer.sourcePath, chunk_hash: newer.chunkHash, at, detected: true },
      });
    if (!marks.get(newer.id)?.supersedes)
      marks.set(newer.id, {
        ...marks.get(newer.id),
        supersedes: { source_path: older.sourcePath, chunk_hash: older.chunkHash, at, detected: true },
      });
  }
}

/** Only the best candidates are compared (each pair of their sentences). */
const DETECT_AMONG = 50;

const recorded = (sourcePath: string, recordId: string, link: SupersessionLink): SupersessionRef => ({
  source_path: sourcePath,
  record_id: recordId,
  at: new Date(link.at).toISOString(),
  detected: false,
});

/** Words of a question about what held before ("my previous best", "what did I use to ..."). */
const ASKS_ABOUT_THE_PAST =
  /\b(?:previous(?:ly)?|before|earlier|used to|originally|initially|at first|formerly|prior|old)\b/i;

/**
 * The evidence an answer is planned from: a statement whose replacement is also in the evidence is left out, unless
 * the question asks about the past. The replacement's citation still names it (`supersedes`).
 */
export function currentEvidence<T extends Pick<ChunkRecord, "id" | "sourcePath" | "chunkHash">>(
  chunks: readonly T[],
  marks: SupersessionMarks,
  question: string,
): T[] {
  if (marks.size === 0 || ASKS_ABOUT_THE_PAST.test(question)) return [...chunks];
  const present = new Set(chunks.flatMap((c) => [c.sourcePath, c.chunkHash]));
  return chunks.filter((c) => {
    const by = marks.get(c.id)?.superseded_by;
    return !by || !present.has(by.chunk_hash ?? by.source_path);
  });
}
