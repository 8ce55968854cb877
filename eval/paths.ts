// Where the eval reads public data (never copied into the repo) and writes its results.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** `../shared/eval` beside the checkout, or SMRITI_EVAL_DIR (relative paths resolve against the repo root). */
export const evalDataDir = resolve(repoRoot, process.env["SMRITI_EVAL_DIR"] || "../shared/eval");

export const resultsDir = resolve(repoRoot, "eval/results");

export const dataFile = (...parts: string[]): string => resolve(evalDataDir, ...parts);
