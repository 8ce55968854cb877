// QMSum train meetings as transcripts ("Speaker: content" lines) and their decision / action queries with gold turn ranges.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataFile } from "../paths.ts";

export type Kind = "decision" | "action";
export const KINDS: readonly Kind[] = ["decision", "action"];
export type Split = "tune" | "test";

/** Query filters (whole-word prefixes, so "disagree" is not "agree"): decision 72 and action 28 of the 1,095 specific queries. */
export const QUERY_FILTERS: Record<Kind, RegExp> = {
  decision: /\b(?:decid|decision|agree|conclu|settl)\w*/i,
  action:
    /\b(?:action|next steps?|to[- ]do|todo|assign\w*|tasks?|follow[- ]?ups?|responsib\w*|will do|deadline|plan(?:ned)? (?:to|for) (?:the )?next)\b/i,
};

export interface GoldQuery {
  query: string;
  kinds: Kind[];
  /** Inclusive [first, last] turn indices into meeting_transcripts (no span ends at or past the last turn + 1 in the set). */
  spans: [number, number][];
}

export interface Meeting {
  id: string;
  /** Position in file-name order; even = tune split. */
  index: number;
  split: Split;
  /** One line per turn, so turn i is line i + 1 (newlines inside a turn become spaces). */
  transcript: string;
  turns: number;
  queries: GoldQuery[];
}

interface QmsumFile {
  specific_query_list: { query: string; relevant_text_span: [string, string][] }[];
  meeting_transcripts: { speaker: string; content: string }[];
}

export function loadQmsum(): Meeting[] {
  const dir = dataFile("qmsum", "train");
  if (!existsSync(dir)) throw new Error(`missing ${dir}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file, index) => {
      const raw = JSON.parse(readFileSync(join(dir, file), "utf8")) as QmsumFile;
      const queries = raw.specific_query_list.map((q) => ({
        query: q.query,
        kinds: KINDS.filter((k) => QUERY_FILTERS[k].test(q.query)),
        spans: q.relevant_text_span.map(([a, b]) => [Number(a), Number(b)] as [number, number]),
      }));
      return {
        id: file.replace(/\.json$/, ""),
        index,
        split: index % 2 === 0 ? "tune" : "test",
        transcript: raw.meeting_transcripts
          .map((t) => `${t.speaker}: ${t.content.replace(/\s+/g, " ").trim()}`)
          .join("\n"),
        turns: raw.meeting_transcripts.length,
        queries: queries.filter((q) => q.kinds.length > 0),
      };
    });
}
