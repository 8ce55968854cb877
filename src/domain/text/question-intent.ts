// What a message asks for, read as a person would (issue 40 item 5): remember a note, list what is still open, check
// decisions, or answer a question. The planner and the tool selector route by it. Pure.

export type Intent = "remember" | "multi_part" | "open_loops" | "decisions" | "question";

const REMEMBER = /^\s*(?:please\s+)?(?:remember|note|save|record)(?:\s+that)?\s*[:,]?\s+\S/i;
/** Words that ask what is open, pending or undecided (not "opened", not "open source"). */
const OPEN_WORDS =
  /\b(?:(?:still|remain(?:s|ing)?) (?:open|pending|undecided|unresolved|unanswered|outstanding|to (?:do|decide))|open (?:questions?|loops?|items?|issues?|points?|threads?)|(?:is|are|'s|'re) (?:open|pending|undecided|unresolved|unanswered|outstanding)\s*\??$|pending|undecided|unresolved|unanswered|outstanding|to be decided|tbd|todos?|to-dos?|next steps?|action items?|follow[- ]?ups?|left (?:to (?:do|decide)|open)|(?:what'?s|what is) left|still (?:need|have) to (?:do|decide|figure))\b/i;
/** A question about a thing being open ("Is the office open on Sunday?") names its subject before "open". */
const SUBJECT_OPEN = /^\s*(?:is|are|was|were)\s+(?:the|a|an|our|their|this|that)\s+\w+(?:\s+\w+)?\s+open\b/i;
const DECISIONS = /\bdecid|\bdecision/i;

/** Whether a question asks what is still open, pending or undecided. */
export function asksWhatIsOpen(question: string): boolean {
  return OPEN_WORDS.test(question) && !SUBJECT_OPEN.test(question);
}

/** The questions of a message that asks several ("Who picked it? What is open?"), each ending in "?". */
export function questionsOf(message: string): string[] {
  return message
    .split(/(?<=\?)\s+/)
    .map((q) => q.trim())
    .filter((q) => q.endsWith("?"));
}

export function intentOf(message: string): Intent {
  if (REMEMBER.test(message)) return "remember";
  if (questionsOf(message).length >= 2) return "multi_part";
  if (asksWhatIsOpen(message)) return "open_loops";
  if (DECISIONS.test(message)) return "decisions";
  return "question";
}

/** The tools that serve an intent, best first. */
export const INTENT_TOOLS: Record<Intent, readonly string[]> = {
  remember: ["service_ingest"],
  multi_part: ["delegate", "service_grounded_answer"],
  open_loops: ["service_open_loops", "service_grounded_answer"],
  decisions: ["service_grounded_answer", "service_decisions_list", "service_recall"],
  question: ["service_grounded_answer", "service_recall", "service_pack"],
};
