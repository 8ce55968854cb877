// Reads a sentence-embedding model directory as sentence-transformers / Hugging Face export it (SMRITI_EMBED_MODEL):
// where the ONNX weights are, the tokenizer files, pooling and normalization, the longest input. Never downloads.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { z } from "zod";

export type Pooling = "mean" | "cls" | "max";

/** What the embedder needs of a model directory, validated. */
export interface ModelSpec {
  readonly dir: string;
  readonly modelFile: string;
  readonly tokenizer: object;
  readonly tokenizerConfig: object;
  readonly pooling: Pooling;
  readonly normalize: boolean;
  /** Tokens per text, special tokens included; longer texts are truncated. */
  readonly maxLength: number;
  /** Output width when the config says it (hidden_size / word_embedding_dimension); else probed from the model. */
  readonly dimensions: number | null;
}

/** A model directory that cannot be used: the message names the directory and what is missing or malformed. */
export class ModelDirError extends Error {}

const Modules = z.array(z.object({ path: z.string(), type: z.string() }));
const PoolingConfig = z.object({
  word_embedding_dimension: z.number().int().positive().optional(),
  pooling_mode_cls_token: z.boolean().optional(),
  pooling_mode_mean_tokens: z.boolean().optional(),
  pooling_mode_max_tokens: z.boolean().optional(),
  pooling_mode_mean_sqrt_len_tokens: z.boolean().optional(),
});
const Positive = z.number().int().positive();

/** The weights file: model.onnx at the top, else onnx/model.onnx (the Hugging Face layout). */
const MODEL_FILES = ["model.onnx", join("onnx", "model.onnx")];

export function readModelDir(path: string): ModelSpec {
  const dir = resolve(path);
  const fail = (what: string): never => {
    throw new ModelDirError(`SMRITI_EMBED_MODEL=${dir}: ${what}`);
  };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail("is not a directory");
  const modelFile = MODEL_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!modelFile) fail(`no ONNX weights (looked for ${MODEL_FILES.join(" and ")})`);
  const json = (name: string, required: boolean): unknown => {
    const file = join(dir, name);
    if (!existsSync(file)) return required ? fail(`${name} is missing`) : undefined;
    try {
      return JSON.parse(readFileSync(file, "utf8")) as unknown;
    } catch (err) {
      return fail(`${name} is not valid JSON (${(err as Error).message})`);
    }
  };
  const tokenizer = json("tokenizer.json", true);
  if (typeof tokenizer !== "object" || tokenizer === null || !("model" in tokenizer))
    fail("tokenizer.json has no tokenizer model (expected a Hugging Face tokenizers file)");
  const tokenizerConfig = (json("tokenizer_config.json", false) ?? {}) as Record<string, unknown>;
  const config = (json("config.json", false) ?? {}) as Record<string, unknown>;
  const { pooling, normalize, poolDims } = poolingOf(dir, json, fail);
  const stConfig = (json("sentence_bert_config.json", false) ?? {}) as Record<string, unknown>;
  const maxLength =
    [stConfig["max_seq_length"], tokenizerConfig["model_max_length"], config["max_position_embeddings"]]
      .map((v) => Positive.safeParse(v))
      .find((r) => r.success && r.data <= 65_536)?.data ?? 512;
  const hidden = Positive.safeParse(config["hidden_size"]);
  return {
    dir,
    modelFile: modelFile!,
    tokenizer: tokenizer as object,
    tokenizerConfig,
    pooling,
    normalize,
    maxLength,
    dimensions: poolDims ?? (hidden.success ? hidden.data : null),
  };
}

/** Pooling and normalization from modules.json (sentence-transformers); without it mean pooling, normalized. */
function poolingOf(
  dir: string,
  json: (name: string, required: boolean) => unknown,
  fail: (what: string) => never,
): { pooling: Pooling; normalize: boolean; poolDims: number | null } {
  const raw = json("modules.json", false);
  if (raw === undefined) return { pooling: "mean", normalize: true, poolDims: null };
  const modules = Modules.safeParse(raw);
  if (!modules.success) return fail("modules.json is not a list of {path, type} modules");
  const types = modules.data.map((m) => m.type.split(".").pop());
  const poolModule = modules.data.find((m) => m.type.endsWith(".Pooling"));
  if (!poolModule) return fail("modules.json has no Pooling module");
  const file = join(poolModule.path, "config.json");
  if (!existsSync(join(dir, file))) return fail(`${file} is missing (named by modules.json)`);
  const parsed = PoolingConfig.safeParse(json(file, true));
  if (!parsed.success) return fail(`${file} is malformed: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const p = parsed.data;
  const modes: Pooling[] = [];
  if (p.pooling_mode_cls_token) modes.push("cls");
  if (p.pooling_mode_mean_tokens) modes.push("mean");
  if (p.pooling_mode_max_tokens) modes.push("max");
  if (p.pooling_mode_mean_sqrt_len_tokens) return fail(`${file}: mean_sqrt_len pooling is not supported`);
  if (modes.length !== 1) return fail(`${file} must turn on exactly one of cls, mean or max pooling`);
  const unsupported = types.filter((t) => t !== "Transformer" && t !== "Pooling" && t !== "Normalize");
  if (unsupported.length > 0)
    return fail(`modules.json has modules this runtime does not apply: ${unsupported.join(", ")}`);
  return { pooling: modes[0]!, normalize: types.includes("Normalize"), poolDims: p.word_embedding_dimension ?? null };
}

/**
 * The embedder id: the directory's name and a digest of everything that decides the vectors (weights, tokenizer,
 * pooling, normalization, length), so stored vectors are re-embedded whenever the model changes.
 */
export async function modelId(spec: ModelSpec): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(spec.modelFile)) hash.update(chunk as Buffer);
  hash.update(JSON.stringify([spec.tokenizer, spec.pooling, spec.normalize, spec.maxLength, ONNX_EMBEDDER_VERSION]));
  const name = basename(spec.dir).replace(/[^A-Za-z0-9._-]/g, "_");
  return `onnx:${name}@${hash.digest("hex").slice(0, 12)}`;
}

/** Bumped when embedding code changes the vectors a model gives (part of the id). */
const ONNX_EMBEDDER_VERSION = 1;
