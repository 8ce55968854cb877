// Whose event the evidence tells (issue 40): LoCoMo's adversarial questions ask a participant about what the other one
// did ("What did Caroline realize after her charity race?" where Melanie ran it). The answer sentence alone often
// cannot tell (speakerOther looks only at it); the evidence as a whole says whose account holds the question's event.
import { splitSentences } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";
import { FIRST_PERSON, named, namesOf, SECOND_PERSON, speakerAt } from "./attribution.ts";
import { termWeights } from "./term-weights.ts";

/** The event counts as told when a sentence holds at least this idf-weighted share of the question's terms (names aside). */
export const EVENT_TOLD = 0.5;

/**
 * 1 when the evidence is a two-person chat, the question names one participant, and the sentence that tells most of
 * the question's event (its terms other than names, idf-weighted, at least EVENT_TOLD) is the other participant's
 * account: their own first-person statement, or a sentence said to them in the second person. 0 otherwise.
 */
export function eventElsewhere(question: string, chunks: readonly string[]): number {
  const names = namesOf(question);
  const sentences = chunks.flatMap((chunk) =>
    splitSentences(chunk).map(({ start, end }) => ({
      speaker: speakerAt(chunk, start),
      text: chunk.slice(start, end),
      terms: new Set(tokenize(chunk.slice(start, end))),
    })),
  );
  const speakers = [...new Set(sentences.map((s) => s.speaker).filter((s): s is string => s !== null))];
  const asked = speakers.filter((s) => named(s, names));
  if (speakers.length !== 2 || asked.length !== 1) return 0;
  const [askedOne] = asked as [string];
  const other = speakers.find((s) => s !== askedOne)!;
  const nameTerms = new Set([...names].flatMap((n) => tokenize(n)));
  const event = [...new Set(tokenize(question))].filter((t) => !nameTerms.has(t));
  if (event.length === 0) return 0;
  const listener = (speaker: string | null) => (speaker === askedOne ? other : speaker === other ? askedOne : null);
  // A first-person sentence is its speaker's account; a second-person one tells the listener's.
  const ownerOf = (s: (typeof sentences)[number]) =>
    FIRST_PERSON.test(s.text) ? s.speaker : SECOND_PERSON.test(s.text) ? listener(s.speaker) : null;
  const weight = termWeights(
    event,
    sentences.map((s) => s.terms),
  );
  const total = event.reduce((sum, t) => sum + weight.get(t)!, 0);
  const told = (terms: ReadonlySet<string>) =>
    event.reduce((sum, t) => sum + (terms.has(t) ? weight.get(t)! : 0), 0) / total;
  const bestOf = (who: string) => Math.max(0, ...sentences.filter((s) => ownerOf(s) === who).map((s) => told(s.terms)));
  const byOther = bestOf(other);
  return byOther >= EVENT_TOLD && byOther > bestOf(askedOne) ? 1 : 0;
}
