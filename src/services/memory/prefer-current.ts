// Recall prefers what is current (issue 45 item 4): a statement a later one replaced is kept, marked and ranked lower.
import type { SupersessionRef } from "../../contract/citation.ts";
import { nudgeScore } from "../../cognitive/evidence.ts";
import type { Found } from "../../cognitive/pipeline.ts";
import type { RecordStore, SupersessionLink } from "../../ports/records.ts";

/** Logit taken from a superseded candidate (the `superseded` term of explain's contributions). */
export const SUPERSEDED_WEIGHT = -2;

/** What a hit's citation says of replacements, by chunk id. */
export type SupersessionMarks = Map<number, { superseded_by?: SupersessionRef; supersedes?: SupersessionRef }>;

export type SupersessionReader = Pick<RecordStore, "supersessions">;

/**
 * Marks candidates whose note was replaced by `asOf` (or ever, without one) and lowers them; marks replacements too.
 * A replacement recorded after `asOf` leaves the old note current, as it was then.
 */
export async function preferCurrent(
  reader: SupersessionReader,
  workspaceId: string,
  found: Found,
  asOf: number | undefined,
): Promise<{ found: Found; marks: SupersessionMarks }> {
  const marks: SupersessionMarks = new Map();
  const paths = [...new Set([...found.chunks.values()].map((c) => c.sourcePath))];
  const links = (await reader.supersessions(workspaceId, paths)).filter((l) => asOf === undefined || l.at <= asOf);
  if (links.length === 0) return { found, marks };
  const replacedBy = new Map(links.map((l) => [l.oldPath, l]));
  const replacing = new Map(links.map((l) => [l.newPath, l]));
  const candidates = found.candidates.map((c) => {
    const chunk = found.chunks.get(c.id);
    if (!chunk) return c;
    const by = replacedBy.get(chunk.sourcePath);
    const of = replacing.get(chunk.sourcePath);
    if (of) marks.set(c.id, { supersedes: ref(of.oldPath, of.oldId, of) });
    if (!by) return c;
    marks.set(c.id, { ...marks.get(c.id), superseded_by: ref(by.newPath, by.newId, by) });
    const contributions = { ...c.contributions, superseded: SUPERSEDED_WEIGHT };
    return { ...c, score: nudgeScore(c.score, SUPERSEDED_WEIGHT), contributions };
  });
  return { found: { ...found, candidates: candidates.sort((a, b) => b.score - a.score) }, marks };
}

const ref = (sourcePath: string, recordId: string, link: SupersessionLink): SupersessionRef => ({
  source_path: sourcePath,
  record_id: recordId,
  at: new Date(link.at).toISOString(),
  detected: false,
});
