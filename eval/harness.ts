// The real service over a throw-away data directory: one store per eval set, runtimes with different retrieval configs share it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createRuntime, type FullRuntime } from "../src/main.ts";
import type { Embedder } from "../src/ports/embedding.ts";
import type { RetrievalConfig } from "../src/search/retrieval-config.ts";
import type { CognitiveConfig } from "../src/cognitive/params.ts";
import { loadGloveEmbedder } from "../src/embed/glove.ts";
import { progress } from "./progress.ts";

export interface Harness {
  /** A runtime over the shared store using these retrieval parameters (and cognitive config: default = the shipped one). */
  runtime(retrieval: RetrievalConfig, cognitive?: CognitiveConfig): Promise<FullRuntime>;
  close(): Promise<void>;
}

let embedder: Promise<Embedder> | null = null;

/** The offline GloVe-SIF embedder, loaded once per process. */
export function gloveEmbedder(): Promise<Embedder> {
  embedder ??= loadGloveEmbedder().catch((err: unknown) => {
    throw new Error(`loading the GloVe embedder (src/embed/glove.ts) failed: ${(err as Error).message}`);
  });
  return embedder;
}

export async function openHarness(
  label: string,
  retrieval: RetrievalConfig,
): Promise<{ harness: Harness; primary: FullRuntime }> {
  const dir = mkdtempSync(join(tmpdir(), `smriti-eval-${label}-`));
  const emb = await gloveEmbedder();
  const config = loadConfig({ ...process.env }, { data: dir });
  const primary = await createRuntime(config, { embedder: emb, log: () => {}, retrieval, restoreLearned: false });
  progress(`${label}: data dir ${dir}`);
  const harness: Harness = {
    runtime: (r, cognitive) =>
      createRuntime(config, {
        embedder: emb,
        log: () => {},
        retrieval: r,
        store: primary.store,
        restoreLearned: false,
        ...(cognitive ? { cognitive } : {}),
      }),
    async close() {
      await primary.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return { harness, primary };
}
