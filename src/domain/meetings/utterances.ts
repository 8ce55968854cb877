// The sentences of every turn as literal ranges, plus a normalized copy that the meeting cue patterns match against.
import { splitSentences } from "../text/sentences.ts";
import type { Turn } from "./transcript.ts";

export interface Utterance {
  turn: number;
  start: number;
  end: number;
  /** Markup and {annotations} removed, "we 're" joined to "we're", curly quotes straightened, spaces collapsed; case kept. */
  norm: string;
}

/** Sentences of each turn in transcript order (a turn's lines also split, as splitSentences does). */
export function utterancesOf(text: string, turns: readonly Turn[]): Utterance[] {
  return turns.flatMap((t) =>
    splitSentences(text, t.start, t.end).map((s) => ({
      turn: t.index,
      ...s,
      norm: normalizeSpeech(text.slice(s.start, s.end)),
    })),
  );
}

/** What cue patterns see: ASR and corpus markup ("<v A>", "{vocalsound}", "[laughter]") and tokenized clitics ("we 'll") undone. */
export function normalizeSpeech(raw: string): string {
  return raw
    .replace(/<[^>]*>|\{[^}]*\}|\[[^\]]*\]/g, " ")
    .replace(/[’‘]/g, "'")
    .replace(/\s+(?=(?:'(?:ll|re|ve|s|d|m|t)|n't)\b)/gi, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The text an item shows: the literal sentence with markup tags removed and whitespace collapsed. */
export function displayText(raw: string): string {
  return raw
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
