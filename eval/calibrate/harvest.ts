// Harvests (signals, pool, relevant?) rows from the service's own candidate pools: top-60 of BM25 ∪ top-60 dense per query.
import type { FullRuntime } from "../../src/main.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { Candidate } from "../../src/search/types.ts";
import { ticker } from "../progress.ts";
import type { SetRun } from "../run-set.ts";

export interface Sample {
  set: string;
  query: string;
  /** "fit" or "test" (held-out) rows. */
  split: "fit" | "test";
  lexical: number;
  dense: number;
  /** The candidate came from the BM25 top-60 (the lexical-only pool). */
  inLexicalPool: boolean;
  /** The candidate came from the dense top-60 (the vector-only pool). */
  inDensePool: boolean;
  relevant: 0 | 1;
  /** The chunk, and what the conversation rules read of it (`src/search/conversation.ts`, applied after stage 1). */
  id: number;
  /** Its thread neighbours when it is one of the first lexical hits (they are lifted toward it). */
  neighbours: readonly number[];
  /** It is a turn of a speaker the query names. */
  namedSpeaker: boolean;
  /** Its session's first turn, when it is a turn of one. */
  session: number | null;
  /**
   * Unanswerable rows: the query asked against another vault (nothing there is relevant); which of the query's
   * foreign vaults (0, 1, ...), so a mix can take the first k. Absent on answerable rows.
   */
  foreign?: number;
}

export const POOL = 60;

/**
 * Candidates come straight from the retriever (the stage memory.recall ranks) with k = 60, so the
 * pool is exactly BM25 top-60 ∪ dense top-60, each candidate scored on both signals.
 */
export async function harvest(
  runtime: FullRuntime,
  run: SetRun,
  split: (queryId: string, vault: string) => "fit" | "test",
): Promise<Sample[]> {
  const { set } = run;
  const out: Sample[] = [];
  const tick = ticker(`harvest ${set.name}`, set.queries.length);
  let done = 0;
  for (const q of set.queries) {
    const workspaceId = run.workspaces.get(q.vault)!;
    const candidates = await runtime.retriever.retrieve({
      workspaceId,
      query: q.text,
      k: POOL,
      mode: "hybrid",
      filter: {},
    });
    const paths = new Map(
      (
        await runtime.store.documents.getChunks(
          workspaceId,
          candidates.map((c) => c.id),
        )
      ).map((c) => [c.id, c.sourcePath]),
    );
    const s = split(q.id, q.vault);
    const terms = new Set(tokenize(q.text));
    for (const c of candidates) {
      const path = paths.get(c.id);
      if (path === undefined) continue;
      out.push({
        set: set.name,
        query: q.id,
        split: s,
        lexical: c.lexical,
        dense: c.dense ?? 0,
        inLexicalPool: c.lexicalRank !== null,
        inDensePool: c.denseRank !== null,
        relevant: q.gold.has(set.unitOf(path)) ? 1 : 0,
        ...turnOf(c, terms),
      });
    }
    tick(++done);
  }
  return out;
}

/**
 * Unanswerable queries: each query asked against other vaults of the same set (`targets` names them, in order, with
 * the split), every candidate negative. LoCoMo: another conversation; LongMemEval: another question's haystack.
 */
export async function harvestUnanswerable(
  runtime: FullRuntime,
  run: SetRun,
  targets: (queryId: string, vault: string) => { vault: string; split: "fit" | "test" }[],
): Promise<Sample[]> {
  const { set } = run;
  const out: Sample[] = [];
  const tick = ticker(`harvest ${set.name} unanswerable`, set.queries.length);
  let done = 0;
  for (const q of set.queries) {
    const terms = new Set(tokenize(q.text));
    for (const [i, t] of targets(q.id, q.vault).entries()) {
      const workspaceId = run.workspaces.get(t.vault)!;
      const candidates = await runtime.retriever.retrieve({
        workspaceId,
        query: q.text,
        k: POOL,
        mode: "hybrid",
        filter: {},
      });
      for (const c of candidates)
        out.push({
          set: set.name,
          query: `${q.id}@${t.vault}`,
          split: t.split,
          lexical: c.lexical,
          dense: c.dense ?? 0,
          inLexicalPool: c.lexicalRank !== null,
          inDensePool: c.denseRank !== null,
          relevant: 0,
          ...turnOf(c, terms),
          foreign: i,
        });
    }
    tick(++done);
  }
  return out;
}

/** What the conversation rules read of a candidate, as its row keeps it. */
function turnOf(
  c: Candidate,
  terms: ReadonlySet<string>,
): Pick<Sample, "id" | "neighbours" | "namedSpeaker" | "session"> {
  return {
    id: c.id,
    neighbours: c.neighbours ?? [],
    namedSpeaker: c.speaker !== undefined && terms.has(c.speaker),
    session: c.session ?? null,
  };
}
