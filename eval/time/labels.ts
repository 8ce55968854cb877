// Hand labels of the time scripts: a JSON file beside them holding one list, read into a verdict per key
// (true right, false wrong, null unclear).
import { readFileSync } from "node:fs";

export function labelVerdicts<L>(
  file: string,
  list: string,
  keyOf: (label: L) => string,
  verdictOf: (label: L) => boolean | null,
): Map<string, boolean | null> {
  const json = JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as Record<string, L[]>;
  return new Map((json[list] ?? []).map((l) => [keyOf(l), verdictOf(l)]));
}
