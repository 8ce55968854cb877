// The tuner on outcome feedback: replays the queries callers reported on and keeps a parameter change only when the
// citations they used rank higher (and the unhelpful ones lower) on the held-in half of those queries.
import { TUNER_KNOBS } from "../../cognitive/knobs.ts";
import { withSwitches, type CognitiveConfig } from "../../cognitive/params.ts";
import type { CognitivePipeline } from "../../cognitive/pipeline.ts";
import { recordTunerRun, type TunerDecision } from "../../cognitive/records.ts";
import { tune, type Measurement } from "../../cognitive/tuner.ts";
import type { AuditLog } from "../../ports/audit-log.ts";
import type { Store } from "../../ports/store.ts";
import { trajectoryRequest } from "../audit/audit.ts";
import { FEEDBACK_EVENT } from "./feedback.ts";
import type { MemoryService } from "../memory/memory.ts";
import { yieldToIo } from "../../threads/loop-yield.ts";
import { findTimeExpressions } from "../../domain/time/expressions.ts";
import { readsFromAskingTime } from "../../domain/time/asked-period.ts";

/** One replayable query and what callers said about its citations. */
export interface FeedbackCase {
  workspaceId: string;
  query: string;
  /** When it was asked (its trajectory's asked_at, else the report's time): a replay reads "last week" against it. */
  askedAt: string;
  used: ReadonlySet<string>;
  unhelpful: ReadonlySet<string>;
}

/** Hits a replay looks at, the fewest cases worth tuning on, and the gain a change must beat (a few cases' worth of rank). */
const K = 10;
export const MIN_FEEDBACK_CASES = 4;
const MIN_GAIN = 0.005;

/** Reports with a query (their own, or their grounded answer's question), merged per workspace and query, ordered by query. */
export async function feedbackCases(store: AuditLog, workspaceIds: readonly string[]): Promise<FeedbackCase[]> {
  const byKey = new Map<string, FeedbackCase & { used: Set<string>; unhelpful: Set<string> }>();
  for (const workspaceId of workspaceIds)
    for (let after = 0; ;) {
      const page = await store.listEvents(workspaceId, { afterSeq: after, limit: 1000, types: [FEEDBACK_EVENT] });
      for (const e of page) {
        const p = JSON.parse(e.payload) as { chunk_hashes: string[]; outcome: string; query?: string };
        const asked = e.trajectoryId ? await questionOf(store, workspaceId, e.trajectoryId) : undefined;
        const query = p.query ?? asked?.question;
        if (!query) continue;
        const askedAt = asked?.asked_at ?? new Date(e.at).toISOString();
        // By query first: workspace ids are random, and the held-in split should not depend on them. A query whose
        // words count from when it is asked ("last week") is a case a day.
        const day = findTimeExpressions(query, { instant: e.at }).some(readsFromAskingTime) ? askedAt.slice(0, 10) : "";
        const key = `${query}\u0000${day}\u0000${workspaceId}`;
        const c = byKey.get(key) ?? {
          workspaceId,
          query,
          askedAt,
          used: new Set<string>(),
          unhelpful: new Set<string>(),
        };
        for (const h of p.chunk_hashes) (p.outcome === "used" ? c.used : c.unhelpful).add(h);
        byKey.set(key, c);
      }
      const last = page.at(-1);
      if (!last) break;
      after = last.seq;
    }
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}

type AskedQuestion = { question?: string; asked_at?: string };
async function questionOf(store: AuditLog, workspaceId: string, trajectoryId: string): Promise<AskedQuestion> {
  const request = await trajectoryRequest(store, workspaceId, trajectoryId);
  return request ? ((JSON.parse(request.payload) as { request?: AskedQuestion }).request ?? {}) : {};
}

/** Mean reciprocal rank of the used citations minus that of the unhelpful ones (0 for one not in the top K). */
export function caseScore(ranked: readonly string[], c: FeedbackCase): number {
  const rr = (hashes: ReadonlySet<string>) =>
    hashes.size === 0
      ? 0
      : [...hashes].reduce((s, h) => s + (ranked.includes(h) ? 1 / (ranked.indexOf(h) + 1) : 0), 0) / hashes.size;
  return rr(c.used) - rr(c.unhelpful);
}

export interface FeedbackTuning {
  cases: number;
  baseline: Measurement;
  final: Measurement;
  decisions: TunerDecision[];
  config: CognitiveConfig;
}

/**
 * Coordinate ascent over the tuner's knobs, measured on the feedback: even-indexed cases decide, odd ones are reported.
 * Replays are dry (no counters, no learning) and run with karma off, which would otherwise rank the reported
 * citations by the very feedback being measured. Records the decisions and the tuned parameters the server starts with.
 * It reconfigures `pipeline` while it runs, so give it a runtime that serves nothing else (the CLI's, the eval's, or
 * the server's shadow pipeline); it yields to the event loop after each replay, and `signal` stops it between replays.
 */
export async function tuneFromFeedback(
  deps: { store: Store; memory: MemoryService; pipeline: CognitivePipeline; now: () => number },
  cases: readonly FeedbackCase[],
  opts: { runId: string; log?: (msg: string) => void; signal?: AbortSignal },
): Promise<FeedbackTuning> {
  const start = deps.pipeline.current;
  const measure = async (config: CognitiveConfig): Promise<Measurement> => {
    deps.pipeline.configure(withSwitches(config, { karma: false }));
    const scores: number[] = [];
    for (const c of cases) {
      const res = await deps.memory.recall(c.workspaceId, { query: c.query, k: K, asked_at: c.askedAt }, { dry: true });
      scores.push(
        caseScore(
          res.hits.map((h) => h.chunk_hash),
          c,
        ),
      );
      await yieldToIo(); // a server keeps answering while it tunes
      opts.signal?.throwIfAborted();
    }
    const mean = (odd: boolean) => average(scores.filter((_, i) => i % 2 === (odd ? 1 : 0)));
    return { heldIn: mean(false), heldOut: scores.length > 1 ? mean(true) : null };
  };
  try {
    const metric = `feedback: reciprocal rank of used minus unhelpful citations in the top ${K}, karma off (held-in: even case index of ${cases.length})`;
    const result = await tune(start, TUNER_KNOBS, measure, {
      runId: opts.runId,
      metric,
      minGain: MIN_GAIN,
      ...(opts.log ? { log: opts.log } : {}),
    });
    await recordTunerRun(deps.store.cognitive, deps.now(), result.decisions, {
      run_id: opts.runId,
      params: result.config.params,
      enabled: { ...result.config.enabled },
    });
    return {
      cases: cases.length,
      baseline: result.baseline,
      final: result.final,
      decisions: result.decisions,
      config: result.config,
    };
  } finally {
    deps.pipeline.configure(start);
  }
}

const average = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
