// The ideas measured by `npm run eval -- ideas`: the shipped default with one change each.
import { defaultRetrievalConfig, type RetrievalConfig } from "../../src/search/retrieval-config.ts";
import type { Variant } from "../variants.ts";

const hybrid = (name: string, label: string, retrieval: Partial<RetrievalConfig>): Variant => ({
  name,
  label,
  mode: "hybrid",
  retrieval: { ...defaultRetrievalConfig, ...retrieval },
});

export const IDEAS: Variant[] = [
  hybrid("no-threads", "without thread neighbours (the default before issue 44)", { threads: undefined }),
  ...[0.5, 1.5, 2, 3].map((step) =>
    hybrid(`threads-${step}`, `thread neighbours lifted to their hit's base logit - ${step} (default: 1)`, {
      threads: { windowMs: 6 * 3600_000, step, hits: 5 },
    }),
  ),
  ...[3, 20].map((hits) =>
    hybrid(`threads-hits-${hits}`, `neighbours of the first ${hits} lexical hits only (default: 5)`, {
      threads: { windowMs: 6 * 3600_000, step: 1, hits },
    }),
  ),
];
