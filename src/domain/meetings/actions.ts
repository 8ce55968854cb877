// Action items of a meeting: commitments ("I'll send ..."), assignments ("Bob will ...", "Bob to ..."), accepted requests, labelled actions. Pure.
import { namePattern, ownerName } from "./owners.ts";
import type { Turn } from "./transcript.ts";
import type { Utterance } from "./utterances.ts";

export type OwnerBasis = "self" | "named" | "addressed" | "accepted";

export interface ActionDraft {
  /** Index into the utterances the action was read from. */
  utterance: number;
  owner: string | null;
  ownerBasis: OwnerBasis | null;
  /** The turn whose speaker accepted a request ("Sure, I'll do it"), when that is where the owner came from. */
  replyTurn: number | null;
}

/** Base forms of verbs that start a task; "I'll say", "I'll be", "I can see" are talk, not tasks. */
const VERB = String.raw`(?:send|e-?mail|mail|forward|write|draft|prepare|check|look|follow|call|ring|ping|phone|schedule|set|book|update|fix|review|share|circulate|distribute|create|make|build|finish|complete|organi[sz]e|arrange|contact|ask|find|investigate|research|test|run|implement|handle|take|do|get|put|compile|collect|gather|coordinate|post|upload|file|submit|order|buy|reach|sort|work|summari[sz]e|document|add|change|remove|clean|merge|deploy|reserve|invite|confirm|verify|figure|print|bring|design|report|sketch|mock|measure|calculate|estimate|compare|draw|install|configure|record|transcribe|label|annotate|download|produce|provide|deliver|type|plan|notify|remind|inform|talk to|speak to|let (?:you|them|him|her|everyone|everybody|us) know)\b`;
const ADVERBS = String.raw`(?:(?:also|just|then|now|definitely|quickly|probably|first|still|actually|go ahead and|try to|try and|make sure to|be sure to|need to|have to|start to|start)\s+){0,2}`;
const SELF = new RegExp(
  String.raw`\bi(?:'ll| will|'m going to|'m gonna| am going to| can| shall|'d be happy to| volunteer to|'ll be happy to)\s+${ADVERBS}${VERB}`,
  "i",
);
const REQUEST = new RegExp(
  String.raw`\b(?:(?:can|could|would|will) you(?: please)?\s+|^please\s+)${ADVERBS}${VERB}`,
  "i",
);
const TEAM = new RegExp(
  String.raw`\b(?:we|someone|somebody|the team)(?:'ll| will|'re going to|'re gonna| are going to| need to|'ll need to| have to|'ve got to| must)\s+${ADVERBS}${VERB}`,
  "i",
);
const LABELLED =
  /^(?:[-*+•]\s*)?(?:action(?: items?)?|todo|to-do|next steps?|follow[- ]ups?)\s*[:-]\s*\S|\bnext steps? (?:is|are|will be)\b/i;
const ACCEPT =
  /^(?:sure|yes|yeah|yep|yup|ok|okay|will do|no problem|of course|absolutely|on it|certainly|sounds good|can do|i can|i will|i'll)\b/i;

/** Every action item, in transcript order; `names` are the attendees (owners are matched against them first). */
export function findActions(
  turns: readonly Turn[],
  utterances: readonly Utterance[],
  names: readonly string[],
): ActionDraft[] {
  const who = namePattern(names);
  const named = new RegExp(
    String.raw`(?:^|[,;:]\s*|\band\s+)(${who})(?:\s+(?:will|'ll|is going to|is gonna|needs to|has to|should|can|could)\s+${ADVERBS}${VERB}|\s+to\s+${VERB})`,
    "iu",
  );
  const vocativeFirst = new RegExp(String.raw`^(${who}),`, "iu");
  const vocativeLast = new RegExp(String.raw`,\s*(${who})\s*[?.!]*$`, "iu");
  const firstOfTurn = new Map<number, Utterance>();
  for (const u of utterances) if (!firstOfTurn.has(u.turn)) firstOfTurn.set(u.turn, u);
  const out: ActionDraft[] = [];
  const replies = new Set<Utterance>();
  utterances.forEach((u, i) => {
    if (replies.has(u)) return;
    const speaker = turns[u.turn]?.speaker ?? null;
    const byName = named.exec(u.norm);
    const owner = byName?.[1] ? ownerName(byName[1], names) : null;
    if (owner) return void out.push({ utterance: i, owner, ownerBasis: "named", replyTurn: null });
    if (SELF.test(u.norm))
      return void out.push({ utterance: i, owner: speaker, ownerBasis: speaker ? "self" : null, replyTurn: null });
    if (REQUEST.test(u.norm)) {
      const addressed = [vocativeFirst.exec(u.norm)?.[1], vocativeLast.exec(u.norm)?.[1]]
        .map((n) => (n ? ownerName(n, names) : null))
        .find(Boolean);
      if (addressed) return void out.push({ utterance: i, owner: addressed, ownerBasis: "addressed", replyTurn: null });
      const reply = turns[u.turn + 1];
      const replyFirst = firstOfTurn.get(u.turn + 1);
      if (!reply?.speaker || reply.speaker === speaker || !replyFirst || !ACCEPT.test(replyFirst.norm)) return;
      // The acceptance ("Sure, I can do that") is cited by this item, not listed again as its own.
      replies.add(replyFirst);
      return void out.push({ utterance: i, owner: reply.speaker, ownerBasis: "accepted", replyTurn: reply.index });
    }
    if (TEAM.test(u.norm) || LABELLED.test(u.norm))
      out.push({ utterance: i, owner: null, ownerBasis: null, replyTurn: null });
  });
  return out;
}
