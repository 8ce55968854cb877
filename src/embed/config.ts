// Chooses and builds the embedder from SMRITI_EMBED* environment variables (validated with zod).
//
//   SMRITI_EMBEDDER         glove (default; onnx when only SMRITI_EMBED_MODEL is set) | onnx | openai | none (lexical only)
//   SMRITI_EMBED_URL        openai: server base URL, e.g. http://localhost:11434 (required)
//   SMRITI_EMBED_MODEL      openai: model name (required); onnx: the model directory on disk (required)
//   SMRITI_EMBED_API_KEY    openai: bearer token (optional)
//   SMRITI_EMBED_DIMENSIONS openai: expected vector size (optional; probed from the server if unset)
//   SMRITI_CACHE_DIR        glove: directory of the binary vector cache (optional)
// Empty values count as unset.
import { z } from "zod";
import type { Embedder } from "../ports/embedding.ts";
import { ensureGloveCache, loadGloveEmbedder } from "./glove.ts";
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from "./openai.ts";
import { loadOnnxEmbedder } from "./onnx.ts";

export type EmbedderConfig =
  | { kind: "none" }
  | { kind: "glove"; cacheDir?: string }
  | { kind: "onnx"; modelDir: string }
  | { kind: "openai"; baseUrl: string; model: string; apiKey?: string; dimensions?: number };

type Env = Readonly<Record<string, string | undefined>>;

const Kind = z.enum(["glove", "onnx", "openai", "none"], { error: "must be one of glove, onnx, openai, none" });

const OpenAiEnv = z.object({
  SMRITI_EMBED_URL: z
    .string({ error: "is required when SMRITI_EMBEDDER=openai" })
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), "must be an http(s) URL"),
  SMRITI_EMBED_MODEL: z.string({ error: "is required when SMRITI_EMBEDDER=openai" }).trim().min(1),
  SMRITI_EMBED_API_KEY: z.string().optional(),
  SMRITI_EMBED_DIMENSIONS: z
    .string()
    .trim()
    .regex(/^[1-9][0-9]{0,5}$/, "must be a positive integer")
    .transform(Number)
    .optional(),
});

function fail(issues: readonly z.core.$ZodIssue[]): never {
  // Only names and messages: values (e.g. an API key) are never echoed.
  const text = issues.map((i) => `${i.path.join(".") || "environment"} ${i.message}`).join("; ");
  throw new Error(`Invalid embedder configuration: ${text}`);
}

/** Validates the SMRITI_EMBED* variables; throws a descriptive Error on bad configuration. */
export function parseEmbedderEnv(env: Env): EmbedderConfig {
  const raw = env["SMRITI_EMBEDDER"]?.trim().toLowerCase();
  const modelDir = env["SMRITI_EMBED_MODEL"]?.trim();
  // A model directory alone means the local model: the openai kind is always named.
  const kind = Kind.safeParse(raw === undefined || raw === "" ? (modelDir ? "onnx" : "glove") : raw);
  if (!kind.success) fail(kind.error.issues.map((i) => ({ ...i, path: ["SMRITI_EMBEDDER"] })));
  switch (kind.data) {
    case "none":
      return { kind: "none" };
    case "glove": {
      const dir = env["SMRITI_CACHE_DIR"]?.trim();
      return dir ? { kind: "glove", cacheDir: dir } : { kind: "glove" };
    }
    case "onnx":
      if (!modelDir)
        fail([
          {
            code: "custom",
            path: ["SMRITI_EMBED_MODEL"],
            message: "is required when SMRITI_EMBEDDER=onnx (the model directory)",
            input: undefined,
          },
        ]);
      return { kind: "onnx", modelDir };
    case "openai": {
      const parsed = OpenAiEnv.safeParse(emptyToUndefined(env));
      if (!parsed.success) fail(parsed.error.issues);
      const e = parsed.data;
      return {
        kind: "openai",
        baseUrl: e.SMRITI_EMBED_URL,
        model: e.SMRITI_EMBED_MODEL,
        ...(e.SMRITI_EMBED_API_KEY !== undefined && { apiKey: e.SMRITI_EMBED_API_KEY }),
        ...(e.SMRITI_EMBED_DIMENSIONS !== undefined && { dimensions: e.SMRITI_EMBED_DIMENSIONS }),
      };
    }
  }
}

function emptyToUndefined(env: Env): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) out[k] = v === undefined || v.trim() === "" ? undefined : v;
  return out;
}

export interface EmbedderDeps {
  /** Injected into the OpenAI-compatible client (tests). */
  fetch?: typeof fetch;
  /** Progress worth telling a person (the one-time GloVe cache build). */
  log?: (msg: string) => void;
}

/** Builds the configured embedder; `null` means lexical-only retrieval (SMRITI_EMBEDDER=none). */
export async function createEmbedderFromEnv(env: Env = process.env, deps: EmbedderDeps = {}): Promise<Embedder | null> {
  const config = parseEmbedderEnv(env);
  switch (config.kind) {
    case "none":
      return null;
    case "glove":
      return loadGloveEmbedder({
        ...(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }),
        ...(deps.log
          ? {
              onBuild: (path: string, why: string) =>
                deps.log!(
                  `building the word-vector cache ${path} (${why}; normally built by npm ci: about 20-30 s, once)`,
                ),
            }
          : {}),
      });
    case "onnx":
      return loadOnnxEmbedder(config.modelDir);
    case "openai": {
      const opts: OpenAiEmbedderOptions = { baseUrl: config.baseUrl, model: config.model };
      if (config.apiKey !== undefined) opts.apiKey = config.apiKey;
      if (config.dimensions !== undefined) opts.dimensions = config.dimensions;
      if (deps.fetch !== undefined) opts.fetch = deps.fetch;
      return createOpenAiEmbedder(opts);
    }
  }
}

/** npm's prepare step (scripts/prepare.mjs): builds the GloVe cache at install, not at the first start (issue 41); one line. */
export async function prepareEmbedderCache(env: Env = process.env): Promise<string> {
  const config = parseEmbedderEnv(env);
  if (config.kind !== "glove") return `word-vector cache: skipped (SMRITI_EMBEDDER=${config.kind})`;
  const started = performance.now();
  const info = await ensureGloveCache(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir });
  const took = ((performance.now() - started) / 1000).toFixed(1);
  return info.built
    ? `word-vector cache: built ${info.path} (${info.words} words) in ${took} s`
    : `word-vector cache: ${info.path} is ready`;
}
