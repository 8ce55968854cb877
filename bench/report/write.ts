// Writes the results JSON to bench/results/<date>-<shortcommit>.json and bench/results/latest.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchResults } from "./types.ts";

export function writeResults(r: BenchResults): string[] {
  const dir = fileURLToPath(new URL("../results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(r, null, 2)}\n`;
  const name = `${r.date}-${r.commit.short}${r.options.quick ? "-quick" : ""}.json`;
  const files = [`${dir}${name}`, `${dir}latest.json`];
  for (const f of files) writeFileSync(f, json);
  return files;
}
