// Splits a meeting transcript into turns (speaker, literal text range, timestamp): WebVTT, SRT, "Speaker: text" lines, or plain lines. Pure.
import { lineStartsOf } from "../text/lines.ts";
import { trimSpan } from "../text/markdown-sections.ts";
import type { Span } from "../text/sentences.ts";
import { CLOCK, labelAt } from "./speaker-label.ts";

export type TranscriptFormat = "vtt" | "srt" | "speaker_turns" | "plain";

export interface Turn {
  index: number;
  /** The name as written, or null when the turn names no speaker. */
  speaker: string | null;
  speakerSpan: Span | null;
  /** [start, end) of the spoken text in the transcript, trimmed. */
  start: number;
  end: number;
  /** The cue or line timestamp as written, e.g. "00:01:02.000". */
  timestamp: string | null;
}

export interface Transcript {
  format: TranscriptFormat;
  turns: Turn[];
  lineStarts: number[];
  /** Value ranges of "Attendees: ..." / "Participants: ..." / "Present: ..." lines (never turns). */
  attendeeLists: Span[];
}

interface Line {
  start: number;
  end: number;
}

const CUE_TIMING = new RegExp(String.raw`^[ \t]*(${CLOCK})[ \t]+-->[ \t]+${CLOCK}`, "u");
const ATTENDEES =
  /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(?:attendees|participants|present|in attendance)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(?=\S)/i;
const CUE_METADATA_BLOCK = /^(?:WEBVTT|NOTE|STYLE|REGION)\b/;

/** Turns of a transcript, in order; the format is detected from the text itself. */
export function parseTranscript(text: string): Transcript {
  const lineStarts = lineStartsOf(text);
  const lines: Line[] = lineStarts.map((start, i) => {
    let end = (lineStarts[i + 1] ?? text.length + 1) - 1;
    if (text[end - 1] === "\r") end--;
    return { start, end };
  });
  const attendeeLists: Span[] = [];
  const spoken = lines.filter((l) => {
    const m = ATTENDEES.exec(text.slice(l.start, l.end));
    if (m) attendeeLists.push({ start: l.start + m[0].length, end: trimSpan(text, l.start, l.end)?.end ?? l.end });
    return !m;
  });
  const format = detectFormat(text, spoken);
  const turns =
    format === "vtt" || format === "srt"
      ? cueTurns(text, spoken)
      : format === "speaker_turns"
        ? labelledTurns(text, spoken, false)
        : plainTurns(text, spoken);
  return { format, turns: turns.map((t, index) => ({ ...t, index })), lineStarts, attendeeLists };
}

const isBlank = (text: string, l: Line) => !/\S/.test(text.slice(l.start, l.end));

function detectFormat(text: string, lines: Line[]): TranscriptFormat {
  const nonBlank = lines.filter((l) => !isBlank(text, l));
  if (/^\uFEFF?WEBVTT\b/.test(nonBlank[0] ? text.slice(nonBlank[0].start, nonBlank[0].end) : "")) return "vtt";
  if (nonBlank.some((l) => CUE_TIMING.test(text.slice(l.start, l.end)))) return "srt";
  const labelled = nonBlank.filter((l) => labelAt(text, l.start, l.end) !== null).length;
  // Two labelled lines at least, and a third of all lines: prose with one "Budget: 5k" line stays plain.
  return labelled >= 2 && labelled * 3 >= nonBlank.length ? "speaker_turns" : "plain";
}

type Draft = Omit<Turn, "index">;

function plainTurns(text: string, lines: Line[]): Draft[] {
  return lines.flatMap((l) => {
    const s = trimSpan(text, l.start, l.end);
    return s ? [{ speaker: null, speakerSpan: null, ...s, timestamp: null }] : [];
  });
}

/** Lines opened by a speaker label or timestamp start a turn; other lines continue the open one (or stand alone). */
function labelledTurns(
  text: string,
  lines: Line[],
  firstLineOpensTurn: boolean,
  cueTimestamp: string | null = null,
): Draft[] {
  const out: Draft[] = [];
  let open: Draft | null = null;
  const close = () => {
    const s = open && trimSpan(text, open.start, open.end);
    if (open && s) out.push({ ...open, ...s });
    open = null;
  };
  lines.forEach((l, i) => {
    if (isBlank(text, l)) return;
    const label = labelAt(text, l.start, l.end);
    if (label || !open || (firstLineOpensTurn && i === 0)) {
      close();
      const speakerSpan = label?.speaker ?? null;
      open = {
        speaker: speakerSpan && text.slice(speakerSpan.start, speakerSpan.end),
        speakerSpan,
        start: label?.textStart ?? l.start,
        end: l.end,
        timestamp: label?.timestamp ?? cueTimestamp,
      };
    } else open.end = l.end;
  });
  close();
  return out;
}

/** WebVTT / SRT: blocks of lines; a block's timing line opens its payload, a voice tag or label names the speaker. */
function cueTurns(text: string, lines: Line[]): Draft[] {
  const out: Draft[] = [];
  let block: Line[] = [];
  const flush = () => {
    const timingAt = block.findIndex((l) => CUE_TIMING.test(text.slice(l.start, l.end)));
    const first = block[0];
    if (timingAt >= 0) {
      const timing = CUE_TIMING.exec(text.slice(block[timingAt]!.start, block[timingAt]!.end));
      out.push(
        ...labelledTurns(text, block.slice(timingAt + 1), true, timing?.[1] ?? null).map(dropClosingVoiceTag(text)),
      );
    } else if (first && !CUE_METADATA_BLOCK.test(text.slice(first.start, first.end).replace(/^\uFEFF/, ""))) {
      out.push(...labelledTurns(text, block, true));
    }
    block = [];
  };
  for (const l of lines) {
    if (isBlank(text, l)) flush();
    else block.push(l);
  }
  flush();
  return out;
}

const dropClosingVoiceTag =
  (text: string) =>
  (t: Draft): Draft => {
    const body = text.slice(t.start, t.end);
    const closing = /[ \t]*<\/v>$/.exec(body);
    return closing && closing.index > 0 ? { ...t, end: t.start + closing.index } : t;
  };
