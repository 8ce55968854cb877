// The ideas measured by `npm run eval -- ideas`: the shipped default with one change each.
import { defaultRetrievalConfig, softTermsSetting, type RetrievalConfig } from "../../src/search/retrieval-config.ts";
import type { SoftTermConfig } from "../../src/search/soft-terms.ts";
import { defaultCognitiveConfig, withSwitches } from "../../src/cognitive/params.ts";
import type { Variant } from "../variants.ts";

/** An idea; `sets`: only on these sets (a conversation rule moves nothing elsewhere, so its grid runs on LoCoMo alone). */
export interface Idea extends Variant {
  sets?: readonly string[];
}

const hybrid = (name: string, label: string, retrieval: Partial<RetrievalConfig>, sets?: string[]): Idea => ({
  name,
  label,
  mode: "hybrid",
  retrieval: { ...defaultRetrievalConfig, ...retrieval },
  ...(sets ? { sets } : {}),
});

/** The default with sabha's dense scale and manas' expansion weight (0: manas off) refitted (eval/README.md, "Fifth round"). */
const refit = (scale: number, manas: number): Idea => {
  const params = defaultCognitiveConfig.params;
  return {
    name: `refit-s${scale}-m${manas}`,
    label: `dense scale ${scale} (default 1.25), manas weight ${manas} (default 0.5; 0 = off)`,
    mode: "hybrid",
    retrieval: defaultRetrievalConfig,
    cognitive: {
      ...withSwitches(defaultCognitiveConfig, manas === 0 ? { manas: false } : {}),
      params: {
        ...params,
        sabha: { denseScale: scale },
        manas: { ...params.manas, weight: manas || params.manas.weight },
      },
    },
  };
};

const SOFT: SoftTermConfig = { neighbours: 20, floor: 0.6, perTerm: 3, maxShare: 0.05, k: 15, weight: 0.5 };
const soft = (name: string, label: string, change: Partial<SoftTermConfig>): Variant =>
  hybrid(`soft-${name}`, `soft term matching, ${label}`, { softTerms: { ...SOFT, ...change } });

export const IDEAS: Idea[] = [
  ...[0.2, 0.3, 0.4, 0.5, 0.7].map((weight) =>
    hybrid(`sessions-${weight}`, `turns lowered by ${weight} x their session's gap to the best session`, {
      sessions: { weight },
    }),
  ),
  ...[0.5, 1, 1.5, 2].map((weight) =>
    hybrid(`speaker-${weight}`, `a turn whose speaker the query names lifted by ${weight}`, { speakers: { weight } }),
  ),
  // The two weights together, to choose them on the fit split and report the held-out one.
  ...[0.5, 1, 1.5, 2].flatMap((speaker) =>
    [0.2, 0.3, 0.5, 0.7].map((session) =>
      hybrid(
        `speaker-${speaker}-sessions-${session}`,
        `speaker lift ${speaker}, session weight ${session}`,
        { speakers: { weight: speaker }, sessions: { weight: session } },
        ["locomo"],
      ),
    ),
  ),
  soft("absent", "only query words the workspace lacks (SMRITI_SOFT_TERMS=1)", softTermsSetting),
  soft("absent-w1", "only query words the workspace lacks, weight 1", { absentOnly: true, weight: 1 }),
  soft("base", "20 GloVe neighbours, cosine >= 0.6, 3 per word, 15 candidates, weight 0.5", {}),
  soft("rescore", "the same re-scoring the pool only (no candidates of its own)", { k: 0 }),
  soft("w0.25", "weight 0.25", { weight: 0.25 }),
  soft("floor0.5", "cosine >= 0.5", { floor: 0.5 }),
  hybrid("no-threads", "without thread neighbours (the default before issue 44)", { threads: undefined }),
  ...[0.5, 1.5, 2, 3].map((step) =>
    hybrid(`threads-${step}`, `thread neighbours lifted to their hit's base logit - ${step} (default: 1)`, {
      threads: { windowMs: 6 * 3600_000, step, hits: 5 },
    }),
  ),
  ...[0, 0.5, 0.75, 1, 1.25]
    .flatMap((scale) => [0, 0.25, 0.5].map((manas) => [scale, manas] as const))
    .filter(([scale, manas]) => scale !== 1.25 || manas !== 0.5) // the default
    .map(([scale, manas]) => refit(scale, manas)),
  ...[3, 20].map((hits) =>
    hybrid(`threads-hits-${hits}`, `neighbours of the first ${hits} lexical hits only (default: 5)`, {
      threads: { windowMs: 6 * 3600_000, step: 1, hits },
    }),
  ),
];
