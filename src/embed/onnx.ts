// Local neural embedder (SMRITI_EMBED_MODEL): a sentence-embedding model directory run in-process by onnxruntime-node
// (an optional peer dependency) with the model's own Hugging Face tokenizer.json; pooling and normalization as the
// directory's sentence-transformers config says (model-dir.ts, pooling.ts).
import { Tokenizer } from "@huggingface/tokenizers";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import type { Embedder, PortableEmbedder } from "../ports/embedding.ts";
import { ModelDirError, modelId, readModelDir, type ModelSpec } from "./model-dir.ts";
import { normalizeInPlace, pool } from "./pooling.ts";

/** Texts per forward pass: enough to amortise the call, few enough that padding to the longest stays cheap. */
const BATCH = 16;
const OUTPUTS = ["last_hidden_state", "token_embeddings"];

type Ort = typeof import("onnxruntime-node");

/** What a worker thread needs to rebuild the same embedder (PortableEmbedder.init). */
export interface OnnxInit {
  dir: string;
  id: string;
}

/** Loads the model directory (a clear error naming what is missing or malformed); the id digests the weights. */
export async function loadOnnxEmbedder(dir: string): Promise<OnnxEmbedder> {
  const spec = readModelDir(dir);
  return OnnxEmbedder.open(spec, await modelId(spec));
}

/** How an ingest worker thread rebuilds the embedder (see PortableEmbedder): same files, same id, its own session. */
export function embedderFromInit(init: OnnxInit): Promise<Embedder> {
  return OnnxEmbedder.open(readModelDir(init.dir), init.id);
}

async function loadRuntime(): Promise<Ort> {
  try {
    return await import("onnxruntime-node");
  } catch (err) {
    throw new Error(
      `SMRITI_EMBED_MODEL needs the optional package onnxruntime-node, which is not installed (${(err as Error).message.split("\n")[0]}): ` +
        "run `npm install onnxruntime-node@1.30.0` (Smriti's .npmrc and allowScripts keep its install script from fetching CUDA libraries)",
    );
  }
}

export class OnnxEmbedder implements Embedder {
  readonly portable: PortableEmbedder;

  private constructor(
    readonly id: string,
    readonly dimensions: number,
    readonly spec: ModelSpec,
    private readonly ort: Ort,
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly output: string,
  ) {
    this.portable = { module: import.meta.url, init: { dir: spec.dir, id } satisfies OnnxInit };
  }

  static async open(spec: ModelSpec, id: string): Promise<OnnxEmbedder> {
    const ort = await loadRuntime();
    let session: InferenceSession;
    try {
      // One thread per session without spinning: ingest runs one session per worker thread, queries one on the loop.
      session = await ort.InferenceSession.create(spec.modelFile, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
        extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
      });
    } catch (err) {
      throw new ModelDirError(
        `SMRITI_EMBED_MODEL=${spec.dir}: ${spec.modelFile} does not load: ${(err as Error).message}`,
      );
    }
    const missing = ["input_ids", "attention_mask"].filter((n) => !session.inputNames.includes(n));
    const unknown = session.inputNames.filter((n) => !["input_ids", "attention_mask", "token_type_ids"].includes(n));
    if (missing.length > 0 || unknown.length > 0)
      throw new ModelDirError(
        `SMRITI_EMBED_MODEL=${spec.dir}: the model's inputs are ${session.inputNames.join(", ")}; expected input_ids, attention_mask and optionally token_type_ids`,
      );
    const output = OUTPUTS.find((o) => session.outputNames.includes(o)) ?? session.outputNames[0]!;
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(spec.tokenizer, spec.tokenizerConfig);
    } catch (err) {
      throw new ModelDirError(
        `SMRITI_EMBED_MODEL=${spec.dir}: tokenizer.json is not usable: ${(err as Error).message}`,
      );
    }
    const probe = new OnnxEmbedder(id, 0, spec, ort, session, tokenizer, output);
    const [v] = await probe.embedRaw(["probe"]);
    const dims = v!.length;
    if (spec.dimensions !== null && spec.dimensions !== dims)
      throw new ModelDirError(
        `SMRITI_EMBED_MODEL=${spec.dir}: the model gives ${dims}-dimensional vectors but its config says ${spec.dimensions}`,
      );
    return new OnnxEmbedder(id, dims, spec, ort, session, tokenizer, output);
  }

  /** Unit vectors (the index compares by cosine, whatever the model's own Normalize module says). */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out = await this.embedRaw(texts);
    if (!this.spec.normalize) for (const v of out) normalizeInPlace(v);
    return out;
  }

  /** The model's sentence vectors: pooled, then normalized only when its modules say so. */
  async embedRaw(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.encode(t));
    // Similar lengths batch together, so little of each pass is padding.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += BATCH) {
      const rows = order.slice(start, start + BATCH);
      const vectors = await this.forward(rows.map((i) => encoded[i]!));
      rows.forEach((i, j) => (out[i] = vectors[j]!));
    }
    return out;
  }

  /** Token ids with the special tokens, cut to the model's length (the closing special token kept). */
  encode(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    const max = this.spec.maxLength;
    return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1]!];
  }

  private async forward(batch: readonly number[][]): Promise<Float32Array[]> {
    const seq = Math.max(...batch.map((ids) => ids.length));
    const size = batch.length * seq;
    const ids = new BigInt64Array(size).fill(BigInt(this.padId()));
    const mask = new BigInt64Array(size);
    batch.forEach((row, b) =>
      row.forEach((id, t) => {
        ids[b * seq + t] = BigInt(id);
        mask[b * seq + t] = 1n;
      }),
    );
    const shape = [batch.length, seq];
    const feeds: Record<string, Tensor> = {
      input_ids: new this.ort.Tensor("int64", ids, shape),
      attention_mask: new this.ort.Tensor("int64", mask, shape),
    };
    if (this.session.inputNames.includes("token_type_ids"))
      feeds["token_type_ids"] = new this.ort.Tensor("int64", new BigInt64Array(size), shape);
    const result = await this.session.run(feeds);
    const hidden = result[this.output]!;
    if (hidden.dims.length !== 3 || hidden.type !== "float32")
      throw new ModelDirError(
        `SMRITI_EMBED_MODEL=${this.spec.dir}: output ${this.output} is ${hidden.type} [${hidden.dims.join(", ")}]; expected float32 token states [batch, sequence, dimensions]`,
      );
    const [b, s, d] = hidden.dims as [number, number, number];
    const pooled = pool(
      hidden.data as Float32Array,
      [b, s, d],
      batch.map((row) => row.length),
      this.spec.pooling,
    );
    if (this.spec.normalize) for (const v of pooled) normalizeInPlace(v);
    return pooled;
  }

  private padId(): number {
    const pad = (this.spec.tokenizerConfig as { pad_token?: unknown }).pad_token;
    return (typeof pad === "string" ? this.tokenizer.token_to_id(pad) : undefined) ?? 0;
  }
}
