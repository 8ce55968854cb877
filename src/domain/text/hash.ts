// Content addressing: normalization and the sha256: identity used by chunk_hash (README "Citations").
import { createHash } from "node:crypto";

/**
 * Normalize before hashing: Unicode NFC, CRLF/CR -> LF, trailing whitespace trimmed per line,
 * runs of blank lines collapsed to one, leading/trailing blank lines removed.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .split(LINE_BREAK)
    .map(trimBlanksEnd)
    .join("")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "");
}

/** Where a line ends for `$` in a multiline pattern, kept in the split (an odd index of its result). */
const LINE_BREAK = /(\n|\u2028|\u2029)/;
/** Space, tab, form feed, vertical tab: the blanks a line's end loses (not every Unicode space: hashes stay as they were). */
const BLANK = new Set([0x20, 0x09, 0x0c, 0x0b]);

/** A line without its trailing blanks, in linear time (`/[ \t\f\v]+$/gm` backtracks quadratically over a long run of them). */
function trimBlanksEnd(line: string): string {
  let end = line.length;
  while (end > 0 && BLANK.has(line.charCodeAt(end - 1))) end--;
  return end === line.length ? line : line.slice(0, end);
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The chunk_hash of a text: same content, same hash, across files and workspaces. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(normalizeText(text))}`;
}
