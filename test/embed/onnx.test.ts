import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOnnxEmbedder, type OnnxEmbedder } from "../../src/embed/onnx.ts";
import { createEmbedderFromEnv, parseEmbedderEnv } from "../../src/embed/config.ts";
import { TINY_MODEL, tinyExpected } from "../helpers/tiny-model.ts";

const expected = tinyExpected();
let embedder: OnnxEmbedder;
let dir: string;

beforeAll(async () => {
  embedder = await loadOnnxEmbedder(TINY_MODEL);
  dir = await mkdtemp(join(tmpdir(), "smriti-onnx-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A copy of the fixture model to change one file of. */
async function variant(name: string, change: (dir: string) => Promise<void>): Promise<string> {
  const target = join(dir, name);
  await cp(TINY_MODEL, target, { recursive: true });
  await change(target);
  return target;
}

function expectClose(actual: Float32Array, want: readonly number[]): void {
  expect(actual.length).toBe(want.length);
  const worst = Math.max(...want.map((w, i) => Math.abs(w - actual[i]!)));
  expect(worst).toBeLessThan(1e-5);
}

describe("the ONNX embedder on the tiny fixture model (expected vectors from numpy, build-tiny-embedder.py)", () => {
  it("tokenizes with the model's WordPiece tokenizer.json, truncating to the model's length", () => {
    for (const t of expected.texts) expect(embedder.encode(t.text), t.text).toEqual(t.ids);
    expect(Math.max(...expected.texts.map((t) => t.ids.length))).toBe(expected.max_length);
  });

  it("mean-pools over the real tokens and normalizes, alone or in a padded batch", async () => {
    expect(embedder.dimensions).toBe(expected.dimensions);
    expect(embedder.id).toMatch(/^onnx:tiny-embedder@[0-9a-f]{12}$/);
    const batch = await embedder.embed(expected.texts.map((t) => t.text));
    for (const [i, t] of expected.texts.entries()) {
      expectClose(batch[i]!, t.mean_normalized);
      expectClose((await embedder.embed([t.text]))[0]!, t.mean_normalized);
    }
  });

  it("takes the [CLS] state and leaves it as it is when the config says cls pooling without Normalize", async () => {
    const cls = await variant("cls", async (d) => {
      const pooling = JSON.parse(await readFile(join(d, "1_Pooling/config.json"), "utf8")) as Record<string, unknown>;
      await writeFile(
        join(d, "1_Pooling/config.json"),
        JSON.stringify({ ...pooling, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }),
      );
      const modules = JSON.parse(await readFile(join(d, "modules.json"), "utf8")) as { type: string }[];
      await writeFile(join(d, "modules.json"), JSON.stringify(modules.filter((m) => !m.type.endsWith("Normalize"))));
    });
    const e = await loadOnnxEmbedder(cls);
    expect(e.id).not.toBe(embedder.id);
    const raw = await e.embedRaw(expected.texts.map((t) => t.text));
    for (const [i, t] of expected.texts.entries()) expectClose(raw[i]!, t.cls);
    // What the service stores is still a unit vector (the index compares by cosine).
    const [stored] = await e.embed([expected.texts[0]!.text]);
    const norm = Math.hypot(...expected.texts[0]!.cls);
    expectClose(
      stored!,
      expected.texts[0]!.cls.map((x) => x / norm),
    );
  });

  it("finds model.onnx at the top of the directory too, and its id follows the weights", async () => {
    const top = await variant("top", async (d) => {
      await cp(join(d, "onnx/model.onnx"), join(d, "model.onnx"));
      await rm(join(d, "onnx"), { recursive: true });
    });
    const e = await loadOnnxEmbedder(top);
    expectClose((await e.embed([expected.texts[1]!.text]))[0]!, expected.texts[1]!.mean_normalized);
    expect(e.id.split("@")[1]).toBe(embedder.id.split("@")[1]);
  });
});

describe("configuration and start-up errors", () => {
  it("SMRITI_EMBED_MODEL alone means the local model; onnx without a directory is refused", () => {
    expect(parseEmbedderEnv({ SMRITI_EMBED_MODEL: TINY_MODEL })).toEqual({ kind: "onnx", modelDir: TINY_MODEL });
    expect(() => parseEmbedderEnv({ SMRITI_EMBEDDER: "onnx" })).toThrow(/SMRITI_EMBED_MODEL is required/);
    expect(
      parseEmbedderEnv({ SMRITI_EMBEDDER: "openai", SMRITI_EMBED_URL: "http://x", SMRITI_EMBED_MODEL: "m" }).kind,
    ).toBe("openai");
  });

  const broken: [string, (d: string) => Promise<void>, RegExp][] = [
    ["no directory", (d) => rm(d, { recursive: true }), /is not a directory/],
    [
      "no weights",
      (d) => rm(join(d, "onnx"), { recursive: true }),
      /no ONNX weights \(looked for model\.onnx and onnx\/model\.onnx\)/,
    ],
    ["no tokenizer", (d) => rm(join(d, "tokenizer.json")), /tokenizer\.json is missing/],
    ["bad tokenizer JSON", (d) => writeFile(join(d, "tokenizer.json"), "{"), /tokenizer\.json is not valid JSON/],
    ["no pooling config", (d) => rm(join(d, "1_Pooling"), { recursive: true }), /1_Pooling\/config\.json is missing/],
    [
      "two pooling modes",
      (d) =>
        writeFile(join(d, "1_Pooling/config.json"), '{"pooling_mode_cls_token":true,"pooling_mode_mean_tokens":true}'),
      /exactly one of cls, mean or max/,
    ],
    ["corrupt weights", (d) => writeFile(join(d, "onnx/model.onnx"), "not a model"), /onnx\/model\.onnx does not load/],
  ];
  it.each(broken)("%s: a start-up error naming what is wrong", async (name, change, message) => {
    const d = await variant(name.replace(/\W/g, "-"), change);
    const start = createEmbedderFromEnv({ SMRITI_EMBED_MODEL: d });
    await expect(start).rejects.toThrow(message);
    await expect(start).rejects.toThrow(`SMRITI_EMBED_MODEL=${d}`);
  });
});
