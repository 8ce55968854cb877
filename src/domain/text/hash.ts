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
    .replace(/[ \t\f\v]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The chunk_hash of a text: same content, same hash, across files and workspaces. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(normalizeText(text))}`;
}
