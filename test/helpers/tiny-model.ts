// The tiny BERT-like ONNX model of test/fixtures (built by build-tiny-embedder.py) and the vectors numpy computed for it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const TINY_MODEL = fileURLToPath(new URL("../fixtures/tiny-embedder", import.meta.url));

export interface TinyExpected {
  dimensions: number;
  max_length: number;
  texts: { text: string; tokens: string[]; ids: number[]; mean_normalized: number[]; cls: number[] }[];
}

export function tinyExpected(): TinyExpected {
  return JSON.parse(readFileSync(`${TINY_MODEL}/expected.json`, "utf8")) as TinyExpected;
}
