// manas (the mind): query understanding. Each content word brings its nearest words from the embedding space as weighted extra terms.
import { tokenize } from "../../domain/text/tokenize.ts";
import type { WordNeighbours } from "../../ports/embedding.ts";
import type { ExpansionTerm } from "../../search/types.ts";
import type { Layer } from "../types.ts";

const WORD = /[\p{L}\p{N}]+/gu;

/** manas over a word-neighbour source; without one (a neural or no embedder) it expands nothing and says so. */
export function createManas(lexicon: WordNeighbours | null): Layer {
  return {
    id: "manas",
    job: "Expands the query: each content word's nearest GloVe words (cosine >= minSimilarity) become extra BM25 terms weighted weight x similarity; queries of more than maxQueryTerms terms are left as they are.",
    counters: ["queries_expanded", "terms_added", "no_lexicon"],
    optional: true,
    perceive(q, ctx) {
      // Expansion uses the embedding space, so only hybrid queries get it: lexical and vector modes are one signal each.
      if (q.requestedMode !== "hybrid") return q;
      if (!lexicon) {
        ctx.count("no_lexicon");
        return q;
      }
      const { weight, neighbours, minSimilarity, maxTerms, maxQueryTerms } = ctx.params.manas;
      const own = tokenize(q.text);
      // A long query already names its vocabulary; expanding it mostly adds noise.
      if (own.length > maxQueryTerms) return q;
      const have = new Set([...own, ...q.expansion.map((e) => e.term)]);
      const added: ExpansionTerm[] = [];
      const words = [...new Set([...q.text.toLowerCase().matchAll(WORD)].map((m) => m[0]))].filter(
        (w) => tokenize(w).length > 0,
      );
      for (const word of words) {
        for (const n of lexicon.neighbours(word, neighbours)) {
          if (n.similarity < minSimilarity || added.length >= maxTerms) continue;
          const [term] = tokenize(n.word);
          if (!term || have.has(term)) continue;
          have.add(term);
          added.push({ term, weight: weight * n.similarity });
        }
      }
      if (added.length === 0) return q;
      ctx.count("queries_expanded");
      ctx.count("terms_added", added.length);
      return { ...q, expansion: [...q.expansion, ...added] };
    },
  };
}
