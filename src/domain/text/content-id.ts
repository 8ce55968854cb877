// Ids derived from content: the same request always names the same record, which makes retries and repeats idempotent.
import { canonicalJson } from "../audit/event-hash.ts";
import { sha256Hex } from "./hash.ts";

/** `<prefix>_` + the first 20 hex of the SHA-256 of the value's canonical JSON (keys sorted). */
export function contentId(prefix: string, value: unknown): string {
  return `${prefix}_${sha256Hex(canonicalJson(value)).slice(0, 20)}`;
}
