// A query that names a time ("in May 2023", "on October 13") lifts the evidence about that time (issue 45 item 3).
import { nudgeScore } from "../../cognitive/evidence.ts";
import type { Found } from "../../cognitive/pipeline.ts";
import { aboutTimes, questionTimes } from "../../domain/time/question-time.ts";

/** Logit added to a candidate about the named time (the `time` term of explain's contributions). */
export const TIME_WEIGHT = 1;
/** Only the best candidates are read for the times they name (a chrono-node pass each). */
const READ = 50;

/** The candidates with those about a time the query names lifted by `weight`, best first again; as is without one. */
export function focusOnTime(found: Found, query: string, weight = TIME_WEIGHT): Found {
  const targets = weight === 0 ? [] : questionTimes(query);
  if (targets.length === 0) return found;
  const candidates = found.candidates.map((c, i) => {
    const chunk = i < READ ? found.chunks.get(c.id) : undefined;
    if (!chunk || !aboutTimes(targets, chunk.text, chunk.authoredAt)) return c;
    return { ...c, score: nudgeScore(c.score, weight), contributions: { ...c.contributions, time: weight } };
  });
  return { ...found, candidates: candidates.sort((a, b) => b.score - a.score) };
}
