// A deterministic embedder for tests: hashed bag of words (texts sharing words get similar vectors, no model to load).
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { Embedder } from "../../src/ports/embedding.ts";

export const toyEmbedder: Embedder = {
  id: "test-hash-16d",
  dimensions: 16,
  embed: async (texts) =>
    texts.map((t) => {
      const v = new Float32Array(16);
      for (const w of tokenize(t)) {
        let h = 2166136261;
        for (const ch of w) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
        v[(h >>> 0) % 16]! += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    }),
};
