// "What is still open?" answered from the open loops (issue 40 item 3): the loops themselves, each cited, instead of a
// span the extractive planner would pull from whatever sentence shares the word "open".
import type { GroundedAnswerResponse, TrajectoryStep } from "../../contract/grounded.ts";
import type { OpenLoop } from "../../contract/open-loops.ts";
import { tokenize } from "../../domain/text/tokenize.ts";

/** How likely a listed loop is open: below the detector's precision on the labelled notes (eval/README.md), a small set. */
export const LOOP_CONFIDENCE = 0.9;
/** At most this many loops in one answer; GET /v1/open_loops lists them all. */
const MAX_LOOPS = 5;
/** Words of a what-is-open question that name no topic. */
const INTENT_WORDS = new Set(
  tokenize(
    "what which is are was were still open pending undecided unresolved unanswered outstanding left remain remaining to do decide decided there any anything the a an about for on in of we our us questions question loops loop items item issues next steps action todo todos tbd be",
  ),
);

/** The loops a question is about: those sharing its topic words when it names a topic (and some share them), else all. */
export function loopsFor(question: string, loops: readonly OpenLoop[]): OpenLoop[] {
  const topic = new Set(tokenize(question).filter((t) => !INTENT_WORDS.has(t)));
  if (topic.size === 0) return loops.slice(0, MAX_LOOPS);
  const overlap = (l: OpenLoop) => tokenize(`${l.citation.anchor} ${l.text}`).filter((t) => topic.has(t)).length;
  const about = loops
    .map((l) => ({ l, n: overlap(l) }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n);
  return (about.length ? about.map((x) => x.l) : loops).slice(0, MAX_LOOPS);
}

/** The response for loops already chosen (at least one): their lines as the answer, their citations as its evidence. */
export function loopAnswer(
  question: string,
  loops: readonly OpenLoop[],
  trajectoryId: string,
  started: number,
): GroundedAnswerResponse {
  const ms = () => Number((performance.now() - started).toFixed(3));
  const citations = loops.map((l) => ({ ...l.citation, score: LOOP_CONFIDENCE }));
  const steps: TrajectoryStep[] = [
    {
      name: "retrieve",
      ms: ms(),
      detail: {
        query: question,
        route: "open_loops",
        hits: loops.map((l) => ({
          chunk_hash: l.citation.chunk_hash,
          source_path: l.source_path,
          line: l.line,
          marker: l.marker,
        })),
      },
    },
    {
      name: "select",
      ms: ms(),
      detail: {
        confidence: LOOP_CONFIDENCE,
        selected: loops.map((l) => ({ source_path: l.source_path, line: l.line })),
      },
    },
  ];
  const answer = loops.map((l) => l.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[ \]\s+)?/, "")).join("\n");
  steps.push({
    name: "answer",
    ms: ms(),
    detail: { answer, citations: citations.map((c) => ({ chunk_hash: c.chunk_hash, text_span: c.text_span })) },
  });
  return {
    question,
    answer,
    answer_type: "sentence",
    confidence: LOOP_CONFIDENCE,
    citations,
    trajectory_id: trajectoryId,
    steps,
  };
}
