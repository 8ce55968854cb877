// Whose words the answer sentence is: in a chat log or transcript ("Caroline: I ran a charity race"), a first-person
// statement is about its speaker, so it answers a question about that person and not one about the other participant.
import { labelAt } from "../meetings/speaker-label.ts";
import { questionNames } from "./answer-confidence.ts";

const POSSESSIVE = /['’]s$/u;
const FIRST_PERSON = /\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|we're|we've|our|ours|us)\b/i;

/** The speaker labelling the line `at` is on, else the chunk's first line (a turn's continuation); lowercased, or null. */
export function speakerAt(text: string, at: number): string | null {
  const lineStart = text.lastIndexOf("\n", Math.max(0, at - 1)) + 1;
  return labelOf(text, lineStart) ?? (lineStart > 0 ? labelOf(text, 0) : null);
}

function labelOf(text: string, lineStart: number): string | null {
  const end = text.indexOf("\n", lineStart);
  const l = labelAt(text, lineStart, end < 0 ? text.length : end);
  return l?.speaker ? text.slice(l.speaker.start, l.speaker.end).toLowerCase() : null;
}

/** The question's names, lowercased, without a possessive "'s" ("Melanie's" names Melanie). */
const namesOf = (question: string): Set<string> =>
  new Set(questionNames(question).map((w) => w.replace(POSSESSIVE, "").toLowerCase()));

/** A speaker is named when the question holds every word of the label or its first word ("Caroline" for "Caroline Lee"). */
const named = (speaker: string, names: ReadonlySet<string>) =>
  names.has(speaker.split(/\s+/)[0]!) || speaker.split(/\s+/).every((w) => names.has(w));

/**
 * 1 when `sentence` (at `at` in `chunk`) is its speaker's own first-person statement while the question names another
 * participant (a speaker of one of the evidence `chunks`) and not this one: the fact is the speaker's, not the asked one's.
 */
export function speakerOther(
  question: string,
  chunk: string,
  at: number,
  sentence: string,
  chunks: readonly string[],
): number {
  const speaker = speakerAt(chunk, at);
  if (!speaker) return 0;
  const names = namesOf(question);
  if (!ownAccount(chunk, at, sentence, names)) return 0;
  if (named(speaker, names)) return 0;
  const participants = new Set(chunks.map((c) => speakerAt(c, 0)).filter((s): s is string => s !== null));
  return [...participants].some((p) => p !== speaker && named(p, names)) ? 1 : 0;
}

const SECOND_PERSON = /\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b/i;
const WORDS = /[\p{L}\p{N}]+/gu;
/**
 * The sentence tells its speaker's own account: it speaks in the first person, or it continues a first-person turn
 * without turning to the listener, by "you" or by a name the question asks about ("I took the kids out. Thankfully,
 * they enjoyed the Grand Canyon a lot!" is the speaker's; "Thanks, Melanie!" is to Melanie).
 */
function ownAccount(chunk: string, at: number, sentence: string, names: ReadonlySet<string>): boolean {
  if (FIRST_PERSON.test(sentence)) return true;
  if (SECOND_PERSON.test(sentence)) return false;
  const lineStart = chunk.lastIndexOf("\n", Math.max(0, at - 1)) + 1;
  const line = labelAt(chunk, lineStart, lineEnd(chunk, lineStart));
  const spoken = sentence.slice(line && lineStart === at ? line.textStart - at : 0);
  if ([...spoken.matchAll(WORDS)].some((m) => names.has(m[0].toLowerCase()))) return false;
  return FIRST_PERSON.test(chunk.slice(lineStart, lineEnd(chunk, at)));
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end < 0 ? text.length : end;
}
