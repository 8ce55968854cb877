// The retriever's query-relative calibration changes scores, never the ranking: for every mode the order is the
// base logit's, the same as with stage 2 switched off, and scores are non-increasing along it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { sigmoid } from "../../src/domain/retrieval/fusion.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import { defaultRetrievalConfig, type RetrievalConfig } from "../../src/search/retrieval-config.ts";
import type { Mode } from "../../src/search/types.ts";
import { toyEmbedder } from "../helpers/toy-embedder.ts";
import { prng } from "../helpers/prng.ts";

const WORDS =
  "lighthouse keeper harbour storm lantern ferry tide island rope anchor gull cliff beacon fog signal wreck sailor chart compass cargo".split(
    " ",
  );
const identity = { gap: 0, best: 0, rank: 0, bias: 0 };
const withoutStage2: RetrievalConfig = {
  ...defaultRetrievalConfig,
  lexicalOnly: { ...defaultRetrievalConfig.lexicalOnly, calibration: identity },
  vectorOnly: { ...defaultRetrievalConfig.vectorOnly, calibration: identity },
  hybrid: { ...defaultRetrievalConfig.hybrid, calibration: identity },
};

let dir: string;
let calibrated: FullRuntime;
let plain: FullRuntime;
/** The default config with the query's lifts off (the eval's plain baselines). */
let unlifted: FullRuntime;
let workspaceId: string;
const queries: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "smriti-order-"));
  const config = loadConfig({}, { data: dir });
  calibrated = await createRuntime(config, { embedder: toyEmbedder, log: () => {}, retrieval: defaultRetrievalConfig });
  plain = await createRuntime(config, {
    embedder: toyEmbedder,
    log: () => {},
    retrieval: withoutStage2,
    store: calibrated.store,
  });
  unlifted = await createRuntime(config, {
    embedder: toyEmbedder,
    log: () => {},
    retrieval: { ...defaultRetrievalConfig, queryLifts: false },
    store: calibrated.store,
  });
  workspaceId = (await calibrated.store.workspaces.ensureWorkspace("order", Date.now())).id;
  const rnd = prng(7);
  const sentence = () => Array.from({ length: rnd.int(3, 9) }, () => rnd.pick(WORDS)).join(" ");
  for (let d = 0; d < 60; d++) {
    // Some identical paragraphs across documents: exact base-logit ties.
    const body = Array.from({ length: rnd.int(1, 4) }, () =>
      rnd.next() < 0.15 ? "The lighthouse keeper lit the lantern." : `${sentence()}.`,
    ).join("\n\n");
    await calibrated.ingest.ingest(workspaceId, { source_path: `notes/${d}.md`, content: `# Note ${d}\n\n${body}\n` });
  }
  for (let q = 0; q < 25; q++) queries.push(Array.from({ length: rnd.int(1, 4) }, () => rnd.pick(WORDS)).join(" "));
});
afterAll(async () => {
  await calibrated.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("retriever ranking under query-relative calibration", () => {
  for (const mode of ["hybrid", "lexical", "vector"] as Mode[]) {
    it(`${mode}: same order as stage 1 alone, ordered by base logit, scores non-increasing, contributions sum to the score's logit`, async () => {
      let compared = 0;
      for (const query of queries) {
        for (const k of [5, 20, 100]) {
          const q = { workspaceId, query, k, mode, filter: {} };
          const a = await calibrated.retriever.retrieve(q);
          const b = await plain.retriever.retrieve(q);
          expect(a.map((c) => c.id)).toEqual(b.map((c) => c.id));
          for (let i = 1; i < a.length; i++) {
            expect(a[i]!.base).toBeLessThanOrEqual(a[i - 1]!.base);
            expect(a[i]!.score).toBeLessThanOrEqual(a[i - 1]!.score);
            if (a[i]!.base === a[i - 1]!.base) expect(a[i]!.score).toBe(a[i - 1]!.score);
          }
          for (const c of a) {
            const logit = Object.values(c.contributions).reduce((x, y) => x + y, 0);
            expect(sigmoid(logit)).toBeCloseTo(c.score, 9);
            expect(Object.keys(c.contributions)).toEqual(
              expect.arrayContaining(["lexical", "bias", "gap", "query_best", "rank", "calibration_bias"]),
            );
            if (mode === "vector") expect(c.contributions.lexical).toBe(0);
          }
          b.forEach((c, i) => expect(c.score).toBeCloseTo(sigmoid(a[i]!.base), 12));
          compared += a.length;
        }
      }
      expect(compared).toBeGreaterThan(100);
    });
  }

  it("a base lift acts before stage 2: bases rise by it, the order and floor follow, contributions still sum", async () => {
    const lift = {
      term: "ferry",
      deltas: (rows: readonly { chunk: { text: string } }[]) =>
        rows.map((r) => (r.chunk.text.includes("ferry") ? 1 : 0)),
    };
    let lifted = 0;
    for (const query of queries) {
      const q = { workspaceId, query, k: 100, mode: "hybrid" as Mode, filter: {} };
      const before = new Map((await calibrated.retriever.retrieve(q)).map((c) => [c.id, c.base]));
      const rows = 8;
      const found = await calibrated.retriever.retrieveChunks(q, rows, { lifts: [lift] });
      for (const [i, c] of found.candidates.entries()) {
        const raised = found.chunks.get(c.id)!.text.includes("ferry");
        expect(c.base).toBeCloseTo(before.get(c.id)! + (raised ? 1 : 0), 12);
        expect(c.contributions.ferry).toBe(raised ? 1 : undefined);
        expect(sigmoid(Object.values(c.contributions).reduce((x, y) => x + y, 0))).toBeCloseTo(c.score, 9);
        if (i > 0) expect(c.base).toBeLessThanOrEqual(found.candidates[i - 1]!.base);
        lifted += raised ? 1 : 0;
      }
      // The lift only raises, so the rows read stay the best: what was left out scores no higher than the last of them.
      if (found.floor !== undefined) expect(found.floor).toBeLessThanOrEqual(found.candidates.at(-1)!.score);
    }
    expect(lifted).toBeGreaterThan(5);
  });

  it("with queryLifts false, a query's lifts move nothing (the eval's plain baselines), a lift marked always still acts", async () => {
    const lift = { term: "all", deltas: (rows: readonly unknown[]) => rows.map((_, i) => i) };
    for (const query of queries.slice(0, 5)) {
      const q = { workspaceId, query, k: 100, mode: "lexical" as Mode, filter: {} };
      const found = await unlifted.retriever.retrieveChunks(q, 8, { lifts: [lift] });
      const order = (await unlifted.retriever.retrieve(q)).slice(0, found.candidates.length);
      expect(found.candidates.map((c) => [c.id, c.base])).toEqual(order.map((c) => [c.id, c.base]));
      expect(found.candidates.every((c) => c.contributions.all === undefined)).toBe(true);
      const lifted = await calibrated.retriever.retrieveChunks(q, 8, { lifts: [lift] });
      if (lifted.candidates.length > 1) expect(lifted.candidates.some((c) => c.contributions.all)).toBe(true);
      // A rule of what memory holds (a replaced statement lowered) is no query lift: it acts there too.
      const held = await unlifted.retriever.retrieveChunks(q, 8, { lifts: [{ ...lift, always: true }] });
      if (held.candidates.length > 1) expect(held.candidates.some((c) => c.contributions.all)).toBe(true);
    }
  });
});
