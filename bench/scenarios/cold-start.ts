// Cold start and resident memory, measured in a fresh process (so ingest garbage does not count).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MemorySnapshot } from "../lib/memory.ts";

export interface ColdStartResult {
  embedder: string;
  embedderLoadMs: number;
  openMs: number;
  /** Includes loading the BM25 index from SQLite. */
  firstLexicalRecallMs: number;
  /** Includes loading the vector index (when an embedder is configured). */
  firstHybridRecallMs: number;
  /** Process start excluded: embedder load + open + first lexical + first hybrid recall. */
  toFirstRecallMs: number;
  warmRecallMs: number;
  memoryBaseline: MemorySnapshot;
  memoryLoaded: MemorySnapshot;
  /** The indexes came from a saved snapshot (SMRITI_INDEX_SNAPSHOTS) rather than from every row. */
  restored: boolean;
}

export function benchColdStart(dataDir: string, embedder: "glove" | "none", query: string): Promise<ColdStartResult> {
  const child = fork(fileURLToPath(new URL("../child/cold-start.ts", import.meta.url)), [dataDir, embedder, query], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let result: ColdStartResult | null = null;
    child.on("message", (m) => (result = m as ColdStartResult));
    child.on("exit", (code) => (result ? resolve(result) : reject(new Error(`cold-start child exited with ${code}`))));
  });
}
