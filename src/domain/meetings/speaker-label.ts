// Recognizes the speaker label that opens a transcript line ("Alice:", "[00:01:02] Bob Lee:", "<v Carol>"), as offsets.

/** A clock time as transcripts write it: 1:02, 00:01:02, 00:01:02.500, 00:01:02,500. */
export const CLOCK = String.raw`\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?`;

export interface LabelledLine {
  /** [start, end) of the speaker name; null for a timestamp without a name. */
  speaker: { start: number; end: number } | null;
  timestamp: string | null;
  /** Where the spoken text starts (after the label); may equal the line end for an empty turn. */
  textStart: number;
}

// Optional [hh:mm:ss] / hh:mm:ss prefix, a name of 1-4 capitalized words, an optional (hh:mm:ss) or "(role, party)", then ": ".
const LABEL = new RegExp(
  String.raw`^([ \t]*(?:[-–—][ \t]+)?(?:[\[(]?(${CLOCK})[\])]?[ \t]+(?:[-–—|][ \t]*)?)?(?:\*\*)?)((?:\p{Lu}|\p{N})[\p{L}\p{N}.'’_-]*(?:[ \t]+(?:\p{Lu}|\p{N}|(?:de|van|von|da|du|del|der|di|la|le|al|bin)\b|d['’])[\p{L}\p{N}.'’_-]*){0,3})(?:\*\*)?(?:[ \t]*(?:[\[(](${CLOCK})[\])]|\((?:[^()\n]|\([^()\n]*\)){1,120}\)))?[ \t]*:(?:\*\*)?(?:[ \t]+|$)`,
  "u",
);
const VOICE = /^([ \t]*(?:[-–—][ \t]+)?)<v(?:\.[\w.-]+)?[ \t]+([^>]*?)[ \t]*>[ \t]*/u;
// Bracketed, or with seconds: a bare "10:30 works for me" is speech, not a timestamp.
const TIMESTAMP_ONLY = new RegExp(
  String.raw`^[ \t]*(?:[\[(](${CLOCK})[\])]|(\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,3})?))[ \t]+(?=\S)`,
  "u",
);

/** Words that open note lines ("Decision: ...", "Attendees: ...") rather than a speaker's turn. */
const NOT_SPEAKERS = new Set([
  ..."action actions agenda ai answer attendees absent date decision decisions due example follow-up follow-ups important location meeting minutes note notes owner participants present question questions re reminder status subject summary time tip title todo to-do topic update warning where when who why what how".split(
    " ",
  ),
  ...["action item", "action items", "follow up", "next step", "next steps", "open question", "open questions"],
]);

/** True when a label's words name a section of notes, not a person. */
export function isNoteLabel(name: string): boolean {
  const n = name.trim().toLowerCase().replace(/\s+/g, " ");
  return NOT_SPEAKERS.has(n) || /^(?:https?|ftp|mailto)$/.test(n);
}

/** The label of a line starting at `at` in `text`, or null when the line does not open with one. */
export function labelAt(text: string, at: number, lineEnd: number): LabelledLine | null {
  const line = text.slice(at, lineEnd);
  const voice = VOICE.exec(line);
  if (voice) {
    const name = voice[2] ?? "";
    const nameAt = at + voice[0].indexOf(name, (voice[1]?.length ?? 0) + 2);
    return {
      speaker: name ? { start: nameAt, end: nameAt + name.length } : null,
      timestamp: null,
      textStart: at + voice[0].length,
    };
  }
  const m = LABEL.exec(line);
  if (m?.[3] && !isNoteLabel(m[3])) {
    const nameAt = at + (m[1]?.length ?? 0);
    return {
      speaker: { start: nameAt, end: nameAt + m[3].length },
      timestamp: m[2] ?? m[4] ?? null,
      textStart: at + m[0].length,
    };
  }
  const t = TIMESTAMP_ONLY.exec(line);
  const stamp = t?.[1] ?? t?.[2];
  return t && stamp ? { speaker: null, timestamp: stamp, textStart: at + t[0].length } : null;
}

/** A chat log's role label, which transcripts write in lower case too ("user: ...", "assistant: ..."). */
const ROLE = /^[ \t]*(?:user|assistant|human|system|bot)[ \t]*:/i;

/** True when the text opens as a turn of a conversation: a speaker or role label, or a transcript's timestamp. */
export function readsAsTurn(text: string): boolean {
  return turnSpeaker(text) !== null;
}

/**
 * Who speaks a turn: the name its label gives ("Bob Lee" of "[00:01:02] Bob Lee: ..."), "" for a turn without a name
 * (a role label or a bare timestamp), null when the text does not open as a turn.
 */
export function turnSpeaker(text: string): string | null {
  const end = text.indexOf("\n");
  const label = labelAt(text, 0, end < 0 ? text.length : end);
  if (label?.speaker) return text.slice(label.speaker.start, label.speaker.end);
  return label !== null || ROLE.test(text) ? "" : null;
}
