// Perturbations of LoCoMo for `npm run eval -- stress`, built in memory at eval time: each is the one situation a layer exists for.
import { intBetween, mulberry32, type Rng } from "../../src/domain/text/prng.ts";
import type { EvalQuery, EvalSet } from "../types.ts";

const EXPORT_DIR = "export/";

/** "8 May 2023": the day header a chat export puts above a turn. */
const exportDate = (iso: string | undefined): string =>
  iso
    ? new Date(iso).toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" })
    : "";

/**
 * viveka: "the same chat imported twice". After the original turns, every turn again as `<conv>/export/<dia_id>`, headed
 * by its session date (so a near-, not an exact, duplicate: exact copies are collapsed before any layer runs).
 */
export function withExportCopies(set: EvalSet): EvalSet {
  return {
    ...set,
    name: `${set.name}-twice`,
    vaults: set.vaults.map((v) => ({
      ...v,
      docs: [
        ...v.docs,
        ...v.docs.map((d) => ({
          ...d,
          sourcePath: `${v.name}/${EXPORT_DIR}${d.sourcePath.slice(v.name.length + 1)}`,
          content: `${exportDate(d.timestamp)}\n${d.content}`,
        })),
      ],
    })),
    // Both copies are the same turn: recall is counted over distinct turns.
    unitOf: (p) => {
      const unit = set.unitOf(p);
      return unit.startsWith(EXPORT_DIR) ? unit.slice(EXPORT_DIR.length) : unit;
    },
  };
}

/** The original and export text of every turn, for reporting how many pairs are near-duplicates by viveka's rule. */
export function exportPairs(set: EvalSet): [string, string][] {
  return set.vaults.flatMap((v) =>
    v.docs.map((d): [string, string] => [d.content, `${exportDate(d.timestamp)}\n${d.content}`]),
  );
}

// After these a name is an object ("with Caroline" -> "with me"); elsewhere a subject ("did Caroline" -> "did I").
const PREPOSITIONS = new Set([
  "to",
  "with",
  "for",
  "about",
  "from",
  "of",
  "at",
  "by",
  "than",
  "like",
  "without",
  "towards",
]);

// The verb before a subject that becomes "I" agrees with it ("is Caroline" -> "am I").
const AGREE: Record<string, string> = { is: "am", has: "have", does: "do", Is: "Am", Has: "Have", Does: "Do" };

/** "What did Caroline research?" -> "What did I research?", "Caroline's" -> "my". Only the name (and a verb before it) changes; pronouns stay. */
export function toFirstPerson(text: string, name: string): string {
  return text.replace(
    new RegExp(`(?:\\b(is|has|does|Is|Has|Does)\\s+)?\\b${name}(['\u2019]s)?\\b`, "g"),
    (_m: string, verb: string | undefined, possessive: string | undefined, at: number) => {
      const before = text.slice(0, at).trimEnd().split(/\s+/).at(-1)?.toLowerCase() ?? "";
      const lead = verb ? `${possessive ? verb : AGREE[verb]!} ` : "";
      if (possessive) return `${lead}${at === 0 ? "My" : "my"}`;
      return `${lead}${!verb && PREPOSITIONS.has(before) ? "me" : "I"}`;
    },
  );
}

export interface ActorQuery {
  q: EvalQuery;
  /** The question as the speaker would ask it about themself. */
  text: string;
  /** The speaker's id as the caller sends it (x-svc-actor-id): the name, lower-case. */
  actorId: string;
}

/** ahamkara: questions naming exactly one of the conversation's two speakers, asked by that speaker in the first person. */
export function firstPersonQueries(
  queries: readonly EvalQuery[],
  speakers: ReadonlyMap<string, readonly string[]>,
): ActorQuery[] {
  const out: ActorQuery[] = [];
  for (const q of queries) {
    const named = (speakers.get(q.vault) ?? []).filter((n) => new RegExp(`\\b${n}\\b`).test(q.text));
    if (named.length !== 1) continue;
    const name = named[0]!;
    out.push({ q, text: toFirstPerson(q.text, name), actorId: name.toLowerCase() });
  }
  return out;
}

// Zero-width space and soft hyphen: what text pasted from web pages and PDFs carries inside words.
const INVISIBLES = ["\u200b", "\u00ad"] as const;

/** indriya: one invisible character at a random inner position of every word of five or more letters. */
export function withInvisibles(text: string, rng: Rng): string {
  return text.replace(/\p{L}{5,}/gu, (w) => {
    const at = intBetween(rng, 1, w.length - 1);
    return `${w.slice(0, at)}${INVISIBLES[intBetween(rng, 0, 1)]}${w.slice(at)}`;
  });
}

export const stressRng = (): Rng => mulberry32(20_260_122);

/** karma: even query indices report feedback, odd ones are measured (LoCoMo lists a conversation's questions together). */
export const isFeedbackQuery = (index: number): boolean => index % 2 === 0;
