// The automatic tuner in the server: when callers have reported feedback since the last tuning run, the feedback tuner
// runs on a shadow pipeline (same store and indexes, its own parameters) and the live one takes the recorded result.
import type { CognitivePipeline } from "../../cognitive/pipeline.ts";
import { RECORD_KINDS } from "../../cognitive/records.ts";
import { runtimeCognitiveConfig } from "../../cognitive/runtime-config.ts";
import { buildCognitiveStack } from "../../cognitive/stack.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Store } from "../../ports/store.ts";
import type { StoredEvent } from "../../ports/audit-log.ts";
import type { WordNeighbours } from "../../ports/embedding.ts";
import { FEEDBACK_EVENT } from "../cognitive/feedback.ts";
import {
  feedbackCases,
  MIN_FEEDBACK_CASES,
  tuneFromFeedback,
  type FeedbackTuning,
} from "../cognitive/feedback-tuning.ts";
import { MemoryService } from "../memory/memory.ts";
import type { Retriever } from "../../search/retriever.ts";

export interface AutoTuneDeps {
  store: Store;
  /** The pipeline that serves requests: it takes the tuned parameters after a run (as a restart would). */
  live: CognitivePipeline;
  /** A recall service over the same store whose pipeline serves nothing else: the tuner reconfigures it while it measures. */
  shadow: { memory: MemoryService; pipeline: CognitivePipeline };
  env: NodeJS.ProcessEnv;
  now: () => number;
  log: (msg: string) => void;
}

export class AutoTuner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private readonly stopping = new AbortController();
  /** The newest feedback event seq per workspace that the last run saw; null until this process has run once. */
  private seen: Map<string, number> | null = null;

  constructor(private readonly deps: AutoTuneDeps) {}

  /** Tunes if feedback arrived since the last run and there are enough cases; null when it had nothing to do. */
  async runOnce(): Promise<FeedbackTuning | null> {
    const { store, now, env } = this.deps;
    const newest = new Map<string, StoredEvent | undefined>();
    for (const w of await store.workspaces.listWorkspaces())
      newest.set(w.id, (await store.audit.listEvents(w.id, { types: [FEEDBACK_EVENT], order: "desc", limit: 1 }))[0]);
    if (!(await this.isFresh(newest))) return null;
    const cases = await feedbackCases(store.audit, [...newest.keys()]);
    if (cases.length < MIN_FEEDBACK_CASES) return null;
    // Read before the run: a report that lands while it measures is the next run's.
    this.seen = new Map([...newest].map(([ws, e]) => [ws, e?.seq ?? 0]));
    // From the parameters a server started now would have (a CLI or eval run may have recorded newer ones).
    this.deps.shadow.pipeline.configure(await runtimeCognitiveConfig(store.cognitive, env));
    const result = await tuneFromFeedback(
      { store, memory: this.deps.shadow.memory, pipeline: this.deps.shadow.pipeline, now },
      cases,
      { runId: `auto-${new Date(now()).toISOString()}`, signal: this.stopping.signal },
    );
    this.deps.live.configure(await runtimeCognitiveConfig(store.cognitive, env));
    const kept = result.decisions.filter((d) => d.kept);
    this.deps.log(
      `auto-tune on ${result.cases} feedback queries: ${kept.length ? kept.map((d) => `${d.layer}.${d.parameter} ${String(d.before)} -> ${String(d.after)}`).join(", ") : "no change kept"}`,
    );
    return result;
  }

  /** Feedback newer than the last run: by event seq once this process has run, else by time against the latest recorded run. */
  private async isFresh(newest: ReadonlyMap<string, StoredEvent | undefined>): Promise<boolean> {
    const seen = this.seen;
    if (seen) return [...newest].some(([ws, e]) => (e?.seq ?? 0) > (seen.get(ws) ?? 0));
    const lastRun =
      (await this.deps.store.cognitive.listCognitiveRecords({ kind: RECORD_KINDS.tuned, limit: 1 }))[0]?.at ??
      -Infinity;
    return [...newest.values()].some((e) => e !== undefined && e.at > lastRun);
  }

  /** Checks every `minutes`; a failed run is logged and the next check tries again. */
  start(minutes: number): void {
    if (minutes <= 0 || this.timer) return;
    this.deps.log(
      `auto-tune: every ${minutes} min when outcome feedback has come in (SMRITI_AUTOTUNE_MINUTES=0 turns it off)`,
    );
    this.timer = setInterval(() => {
      this.running = this.running
        .then(() => this.runOnce())
        .catch((err: unknown) => {
          if (!this.stopping.signal.aborted)
            this.deps.log(`auto-tune failed: ${err instanceof Error ? err.message : String(err)}`);
        });
    }, minutes * 60_000).unref();
  }

  /** Stops the timer and a run in progress (between two replays; nothing is recorded for it). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.running;
  }
}

/** The automatic tuner of a runtime, measuring on a shadow pipeline over the same store and indexes (its replays are dry). */
export async function createAutoTuner(deps: {
  store: Store;
  retriever: Retriever;
  clock: Clock;
  lexicon: WordNeighbours | null;
  live: CognitivePipeline;
  env: NodeJS.ProcessEnv;
  log: (msg: string) => void;
}): Promise<AutoTuner> {
  const now = () => deps.clock.now().getTime();
  const shadow = await buildCognitiveStack({
    store: deps.store.cognitive,
    now,
    lexicon: deps.lexicon,
    config: deps.live.current,
    log: deps.log,
    restore: false,
  });
  return new AutoTuner({
    store: deps.store,
    live: deps.live,
    shadow: {
      memory: new MemoryService(deps.store.documents, deps.store.records, deps.retriever, deps.clock, shadow.pipeline),
      pipeline: shadow.pipeline,
    },
    env: deps.env,
    now,
    log: deps.log,
  });
}
