// The real service over a throw-away data directory: one store per eval set, runtimes with different retrieval configs share it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createRuntime, type FullRuntime } from "../src/main.ts";
import type { Embedder } from "../src/ports/embedding.ts";
import type { CognitiveConfig } from "../src/cognitive/params.ts";
import { GLOVE_EMBEDDER_ID, loadGloveEmbedder } from "../src/embed/glove.ts";
import { loadOnnxEmbedder } from "../src/embed/onnx.ts";
import { defaultRetrievalConfig, type RetrievalConfig } from "../src/search/retrieval-config.ts";
import { readCalibration } from "../src/search/stored-calibration.ts";
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

let modelDir: string | null = null;
let local: Promise<Embedder> | null = null;

/** `--embedder <dir>`: the eval runs with that local ONNX model instead of GloVe (`glove` names the default). */
export function chooseEmbedder(value: string): void {
  modelDir = value.trim().toLowerCase() === "glove" ? null : value;
}

/** The embedder the eval runs with: the model `--embedder` named, else GloVe-SIF. */
export function evalEmbedder(): Promise<Embedder> {
  return modelDir === null ? gloveEmbedder() : (local ??= loadOnnxEmbedder(modelDir));
}

/** The retrieval weights the service would use with `embedder`: GloVe's shipped fit, or a model's stored one (else GloVe's, scanning its vectors). */
export function evalRetrieval(embedder: Embedder): RetrievalConfig {
  if (embedder.id === GLOVE_EMBEDDER_ID) return defaultRetrievalConfig;
  const stored = readCalibration(loadConfig({ ...process.env }).calibrationDir, embedder.id);
  return { ...(stored ?? defaultRetrievalConfig), denseCandidates: true };
}

export async function openHarness(
  label: string,
  retrieval: RetrievalConfig,
): Promise<{ harness: Harness; primary: FullRuntime }> {
  const dir = mkdtempSync(join(tmpdir(), `smriti-eval-${label}-`));
  const emb = await evalEmbedder();
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
