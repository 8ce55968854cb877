// Which role a candidate plays for the sentence verb that matches the question's verb: subject, object or passive agent.
import type { Tagged } from "./language.ts";
import type { Span } from "../text/sentences.ts";
import { tokenize } from "../text/tokenize.ts";
import type { Similar } from "./word-sense.ts";

/** How the question asks about its verb: the verb itself and whether the wh-phrase stands for its logical subject. */
export interface QuestionVerb {
  word: string;
  stem: string;
  /** Tagged VERB in the question. */
  tagged: boolean;
  /** "Who recovered the ball" / "who was the ball recovered by": the doer; "what did Gaga sing" / "what was recovered": the thing done. */
  asksSubject: boolean;
}

/** A candidate's fit to the anchor verb's slots, each weighted by how well the anchor matches the question's verb (1 = same stem). */
export interface SlotFit {
  /** It fills the slot the question asks for. */
  asked: number;
  /** It fills the other slot (subject for an object question, and the reverse): likely not the answer. */
  other: number;
}

const BE = /^(?:is|are|was|were|be|been|being|am)$/i;
const WH = /^(?:what|which|who|whom|whose)$/i;
/** The least word-vector similarity that makes a sentence verb the question's verb ("sing" ~ "perform"). */
const MIN_SIMILAR = 0.5;
/** Tags that may sit inside a noun phrase before its head ("the national anthem", "his 38th"). */
const PRE_NOUN = /^(?:DET|ADJ|NUM|PRON|ADV)$/;

/** The stem of a word's dictionary form, so "sang" meets "sing" and "led" meets "lead". */
const stemOf = (word: string, t: Tagged) => tokenize(t.lemma ?? word)[0];
const isBe = (text: string, t: Tagged | undefined) =>
  t !== undefined && t.pos === "AUX" && BE.test(text.slice(t.start, t.end));

/** A be-form right before token `v` (an adverb between allowed): a passive ("was recovered", "was later recovered"). */
function passiveAt(text: string, tags: readonly Tagged[], v: number): boolean {
  return isBe(text, tags[v - 1]) || (tags[v - 1]?.pos === "ADV" && isBe(text, tags[v - 2]));
}

/**
 * A passive whose wh-word is the agent, the be-form apart from the verb: "who was the ball recovered by" (a stranded "by",
 * not "the team led by Elway"), "by whom was the ball recovered".
 */
function askedAgent(question: string, tags: readonly Tagged[], wh: number, headEnd: number, v: number): boolean {
  const word = (i: number) => (tags[i] ? question.slice(tags[i].start, tags[i].end).toLowerCase() : "");
  const stranded = word(v + 1) === "by" && v + 2 === tags.length;
  return tags.slice(headEnd, v).some((x) => isBe(question, x)) && (stranded || word(wh - 1) === "by");
}

/**
 * The question's verbs after its wh-phrase, each with the slot its wh-phrase fills. In a do-question without a tagged
 * verb, its nouns and adjectives too (the tagger calls "open" in "what did the Queen open" an adjective): one becomes the
 * verb by matching a sentence verb's stem; only tagged verbs are matched by meaning. Empty without a wh-word.
 */
export function questionVerbs(question: string, tags: readonly Tagged[]): QuestionVerb[] {
  const wh = tags.findIndex((t) => WH.test(question.slice(t.start, t.end)));
  if (wh < 0) return [];
  let headEnd = wh + 1; // the wh-phrase: "what", "what team", "which German poet"
  while (headEnd < tags.length && /^(?:NOUN|ADJ|PROPN)$/.test(tags[headEnd]!.pos)) headEnd++;
  const out: QuestionVerb[] = [];
  const guess =
    !tags.some((t) => t.pos === "VERB") &&
    tags.slice(wh + 1).some((t) => /^(?:do|does|did)$/i.test(question.slice(t.start, t.end))); // a do-question without a tagged verb: the tagger missed it
  for (let v = headEnd; v < tags.length; v++) {
    const t = tags[v]!;
    if (/^(?:who|which|that|when|where|whose|whom|while|if)$/i.test(question.slice(t.start, t.end))) break; // a relative clause's verb says nothing of the wh-phrase's slot
    if (t.pos !== "VERB" && !(guess && /^(?:NOUN|ADJ)$/.test(t.pos))) continue;
    const word = question.slice(t.start, t.end).toLowerCase();
    const stem = stemOf(word, t);
    if (stem === undefined) continue;
    const subjectForm = tags.slice(headEnd, v).every((x) => x.pos === "AUX" || x.pos === "ADV" || x.pos === "PART"); // nothing names a subject between
    out.push({
      word,
      stem,
      tagged: t.pos === "VERB",
      asksSubject: subjectForm !== (passiveAt(question, tags, v) || askedAgent(question, tags, wh, headEnd, v)),
    });
  }
  return out;
}

/**
 * For each candidate span: the slots it fills of the sentence verbs that best match the question's verb. Slots by
 * position: the subject is the phrase ending right before the verb (auxiliaries, adverbs or a relative "who"/"which"
 * between), the object the phrase starting right after it, the agent the phrase after a "by" following it; a passive
 * verb's subject is its logical object and its agent its logical subject.
 */
export function slotFits(
  text: string,
  tags: readonly Tagged[],
  verbs: readonly QuestionVerb[],
  similar: Similar | undefined,
): (span: Span) => SlotFit {
  const none = () => ({ asked: 0, other: 0 });
  let strength = 0;
  let anchors: { v: number; asksSubject: boolean }[] = []; // the sentence verbs matching a question word best
  tags.forEach((t, i) => {
    if (t.pos !== "VERB") return;
    const w = text.slice(t.start, t.end).toLowerCase();
    const stem = stemOf(w, t);
    for (const q of verbs) {
      const s = stem === q.stem ? 1 : q.tagged && similar ? similar(q.word, w) : 0;
      if (s < MIN_SIMILAR || s < strength) continue;
      if (s > strength) anchors = [];
      strength = s;
      anchors.push({ v: i, asksSubject: q.asksSubject });
    }
  });
  if (strength === 0) return none;
  const word = (t: Tagged | undefined) => (t ? text.slice(t.start, t.end).toLowerCase() : "");
  // Index of the first token starting at or after `at`.
  const from = (at: number) => {
    const i = tags.findIndex((t) => t.start >= at);
    return i < 0 ? tags.length : i;
  };
  /** The span opens the noun phrase starting at token i: only determiners, adjectives, numbers, adverbs lie between, and no punctuation. */
  const opensAt = (span: Span, i: number) => {
    const first = tags[i];
    if (!first || span.start < first.start || /[,;:()]/.test(text.slice(first.start, span.start))) return false;
    if (/^(?:VERB|AUX|PART)$/.test(tags[from(span.start)]?.pos ?? "")) return false; // "beat the [defending] champions"
    return tags.slice(i, from(span.start)).every((t) => PRE_NOUN.test(t.pos));
  };
  /** The span ends right before token v: only auxiliaries, adverbs, particles or a relative pronoun (after a comma) between. */
  const endsBefore = (span: Span, v: number) => {
    const v0 = tags[v]!;
    if (span.end > v0.start) return false;
    const between = tags.slice(from(span.end), v);
    const relative = between.length > 0 && /^(?:who|which|that)$/.test(word(between[0]));
    const rest = relative ? between.slice(1) : between;
    const gap = text.slice(span.end, (between[0] ?? v0).start);
    return (
      /^[\s,]*$/.test(gap) && (relative || !gap.includes(",")) && rest.every((t) => /^(?:AUX|ADV|PART)$/.test(t.pos))
    );
  };
  return (span) => {
    let asked = false;
    let other = false;
    for (const { v, asksSubject } of anchors) {
      const passive = passiveAt(text, tags, v);
      let after = v + 1;
      while (/^(?:ADV|PART)$/.test(tags[after]?.pos ?? "")) after++; // "stripped away", "picked up"
      const left = endsBefore(span, v); // a passive's be-form is one of the auxiliaries between
      const right = word(tags[after]) !== "by" && opensAt(span, after);
      const agent = word(tags[after]) === "by" && opensAt(span, after + 1);
      const subject = passive ? agent : left;
      const object = passive ? left : right;
      asked ||= asksSubject ? subject : object;
      other ||= asksSubject ? object : subject;
    }
    return { asked: asked ? strength : 0, other: other ? strength : 0 };
  };
}
