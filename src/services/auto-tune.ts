// The automatic tuner in the server: when callers have reported feedback since the last tuning run, the feedback tuner
// runs on a shadow pipeline (same store and indexes, its own parameters) and the live one takes the recorded result.
import type { CognitivePipeline } from "../cognitive/pipeline.ts";
import { RECORD_KINDS } from "../cognitive/records.ts";
import { runtimeCognitiveConfig } from "../cognitive/runtime-config.ts";
import { buildCognitiveStack } from "../cognitive/stack.ts";
import type { Clock, Store, WordNeighbours } from "../ports.ts";
import { FEEDBACK_EVENT } from "./feedback.ts";
import { feedbackCases, MIN_FEEDBACK_CASES, tuneFromFeedback, type FeedbackTuning } from "./feedback-tuning.ts";
import { MemoryService } from "./memory.ts";
import type { Retriever } from "./retriever.ts";

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

  constructor(private readonly deps: AutoTuneDeps) {}

  /** Tunes if feedback arrived after the latest tuning run and there are enough cases; null when it had nothing to do. */
  async runOnce(): Promise<FeedbackTuning | null> {
    const { store, now } = this.deps;
    const workspaces = store.listWorkspaces().map((w) => w.id);
    const lastRun = store.listCognitiveRecords({ kind: RECORD_KINDS.tuned, limit: 1 })[0]?.at ?? -Infinity;
    const newest = Math.max(-Infinity, ...workspaces.map((ws) => store.listEvents(ws, { types: [FEEDBACK_EVENT], order: "desc", limit: 1 })[0]?.at ?? -Infinity));
    if (newest <= lastRun) return null;
    const cases = feedbackCases(store, workspaces);
    if (cases.length < MIN_FEEDBACK_CASES) return null;
    const result = await tuneFromFeedback({ store, memory: this.deps.shadow.memory, pipeline: this.deps.shadow.pipeline, now }, cases, { runId: `auto-${new Date(now()).toISOString()}` });
    this.deps.live.configure(runtimeCognitiveConfig(store, this.deps.env));
    const kept = result.decisions.filter((d) => d.kept);
    this.deps.log(`auto-tune on ${result.cases} feedback queries: ${kept.length ? kept.map((d) => `${d.layer}.${d.parameter} ${String(d.before)} -> ${String(d.after)}`).join(", ") : "no change kept"}`);
    return result;
  }

  /** Checks every `minutes`; a failed run is logged and the next check tries again. */
  start(minutes: number): void {
    if (minutes <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.runOnce()).catch((err: unknown) => this.deps.log(`auto-tune failed: ${err instanceof Error ? err.message : String(err)}`));
    }, minutes * 60_000).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** The automatic tuner of a runtime, measuring on a shadow pipeline over the same store and indexes (its replays are dry). */
export function createAutoTuner(deps: { store: Store; retriever: Retriever; clock: Clock; lexicon: WordNeighbours | null; live: CognitivePipeline; env: NodeJS.ProcessEnv; log: (msg: string) => void }): AutoTuner {
  const now = () => deps.clock.now().getTime();
  const shadow = buildCognitiveStack({ store: deps.store, now, lexicon: deps.lexicon, config: deps.live.current, log: deps.log, restore: false });
  return new AutoTuner({ store: deps.store, live: deps.live, shadow: { memory: new MemoryService(deps.store, deps.retriever, deps.clock, shadow.pipeline), pipeline: shadow.pipeline }, env: deps.env, now, log: deps.log });
}
