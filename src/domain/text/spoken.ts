// Whether a line is someone speaking to someone (a message, a request) rather than naming a subject (a title).

const APOSTROPHE = "['’]";

/** First and second person: the writer or the one addressed (I'm, my, me, you, your, let's). */
const PERSONAL = new RegExp(
  String.raw`\b(?:my|me|mine|myself|you|your|yours|yourself|yourselves)\b|\b(?:I|let)${APOSTROPHE}(?:m|ve|d|ll|s)\b`,
  "i",
);

/**
 * "I" as a subject: opening a sentence or after a word that comes before a subject ("and I", "do I", "so I"). After a
 * noun it is a numeral ("type I", "phase I", "RIG-I"), which titles use.
 */
const SUBJECT_I =
  /(?:^|[.!?:;,"“(]\s+|\b(?:and|but|or|so|if|when|because|since|that|than|as|while|where|what|how|why|do|did|does|can|could|should|would|will|may|might|must|have|had|am|was|then|now|also|just|still|until|unless|though|although)\s+)I\s+\S/i;

/** A lone lower-case "i" is the pronoun as people type it; no title writes a numeral so. */
const TYPED_I = /(?:^|\s)i\s+[a-z]/;

/** Greetings and the words a message opens with when it answers or asks someone. */
const OPENER = /^(?:hi|hello|hey|dear|thanks|thank you|ok|okay|please)\b/i;

/**
 * True when the line speaks as someone (first person), to someone (second person) or opens with a greeting: a
 * message. A title names its subject in the third person, whatever its punctuation (a paper's title may be a question).
 */
export function readsAsSpoken(line: string): boolean {
  return PERSONAL.test(line) || SUBJECT_I.test(line) || TYPED_I.test(line) || OPENER.test(line.trim());
}
