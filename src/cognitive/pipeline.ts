// The cognitive pipeline: runs each layer's hooks in stack order behind a failure guard, stages their counters, times them.
import type { LayerId } from "../contract/cognitive-layers.ts";
import type { ChunkFilter } from "../search/types.ts";
import type { ChunkRecord } from "../ports/documents.ts";
import type { Candidate, Mode, RetrievalQuery } from "../search/types.ts";
import type { CounterRegistry } from "./counters.ts";
import { withSwitches, type CognitiveConfig, type LayerSwitches } from "./params.ts";
import type { TraceStep } from "../contract/cognitive.ts";
import { headBound } from "./evidence.ts";
import type { AnswerState, EvidenceState, Layer, LayerContext, Op, QueryState } from "./types.ts";

type Stage = TraceStep["stage"];

export interface ThinkInput {
  op: Op;
  workspaceId: string;
  actorId: string | null;
  query: string;
  mode: Mode;
  k: number;
  filter: ChunkFilter;
}

/** One request's pass: its config (with per-request switches), state so far, staged counters and trace. */
export interface Thought {
  readonly config: CognitiveConfig;
  query: QueryState;
  evidence: EvidenceState | null;
  answer: AnswerState | null;
  readonly trace: TraceStep[];
  /** layer -> counter -> n, committed to the registry only by commit(). */
  readonly staged: Map<LayerId, Map<string, number>>;
}

export interface Found {
  candidates: Candidate[];
  chunks: Map<number, ChunkRecord>;
  /** When only the best candidates came with rows: the best score among those left out (no layer has seen them). */
  floor?: number;
}

export interface LayerCost {
  calls: number;
  ms: number;
  failures: number;
}

export class CognitivePipeline {
  private readonly costs = new Map<LayerId, LayerCost>();

  constructor(
    /** In stack order: each stage runs the layers that have its hook, in this order. */
    readonly layers: readonly Layer[],
    private config: CognitiveConfig,
    readonly counters: CounterRegistry,
  ) {}

  get current(): CognitiveConfig {
    return this.config;
  }

  /** Replaces the runtime's config (the tuner's parameters, switches from the environment). */
  configure(config: CognitiveConfig): void {
    this.config = config;
  }

  /** Query side: without any layer, hybrid runs as one retriever (sabha fuses), the text as given. */
  perceive(input: ThinkInput, switches?: LayerSwitches): Thought {
    const thought: Thought = {
      config: withSwitches(this.config, switches),
      query: initialQuery(input),
      evidence: null,
      answer: null,
      trace: [],
      staged: new Map(),
    };
    for (const layer of this.layers)
      if (layer.perceive)
        thought.query = this.run(thought, layer, "perceive", thought.query, (ctx) =>
          layer.perceive!(thought.query, ctx),
        );
    return thought;
  }

  /** What the retriever is asked for: the perceived query with `k` candidates. */
  retrievalQuery(thought: Thought, k: number): RetrievalQuery {
    const q = thought.query;
    return {
      workspaceId: q.workspaceId,
      query: q.text,
      k,
      mode: q.mode,
      filter: q.filter,
      expansion: q.expansion,
      denseScale: q.denseScale,
    };
  }

  /** Evidence side: the retrieved candidates (best first) through the weighing layers. */
  weigh(thought: Thought, found: Found, opts: { need: number; diversity: number }): EvidenceState {
    const e = this.weighOn(thought, found, opts, -Infinity)!;
    thought.evidence = e;
    return e;
  }

  /**
   * weigh() over the best candidates only (`found.floor` set), exactly as over all of them: layers touch only their head,
   * so while every layer's head stays above the floor, the candidates left out cannot change what it does. Null when a
   * head would reach one of them (demotions pushed too many below the floor): nothing is staged, weigh them all instead.
   */
  weighHead(thought: Thought, found: Found, opts: { need: number; diversity: number }): EvidenceState | null {
    if (opts.diversity > 0 && found.floor !== undefined) return null; // dhyana orders every item, not a head
    const draft: Thought = { ...thought, trace: [], staged: new Map() };
    const e = this.weighOn(draft, found, opts, found.floor ?? -Infinity);
    if (!e) return null;
    thought.trace.push(...draft.trace);
    for (const [layer, counts] of draft.staged)
      for (const [counter, n] of counts) addStaged(thought, layer, counter, n);
    thought.evidence = e;
    return e;
  }

  private weighOn(
    thought: Thought,
    found: Found,
    opts: { need: number; diversity: number },
    floor: number,
  ): EvidenceState | null {
    const items = found.candidates.map((candidate) => ({
      candidate,
      chunk: found.chunks.get(candidate.id)!,
      score: candidate.score,
      flags: [] as string[],
    }));
    let e: EvidenceState = {
      query: thought.query,
      items,
      need: opts.need,
      diversity: opts.diversity,
      droppedDuplicates: 0,
    };
    // Ties keep the fetched items first (the sorts are stable and they came first), hence >=.
    const head = headBound(opts.need);
    const covered = () => floor === -Infinity || e.items.filter((i) => i.score >= floor).length >= head;
    for (const layer of this.layers) {
      if (!layer.weigh) continue;
      if (!covered()) return null;
      e = this.run(thought, layer, "weigh", e, (ctx) => layer.weigh!(e, ctx));
    }
    return covered() ? e : null;
  }

  /** The answer/abstain decision; without any layer, any cited answer is given. */
  decide(thought: Thought, plan: { confidence: number; threshold: number; citations: number }): AnswerState {
    let a: AnswerState = {
      ...plan,
      accept: plan.citations > 0,
      reason: plan.citations > 0 ? "answered" : "no_evidence",
    };
    const e = thought.evidence ?? { query: thought.query, items: [], need: 0, diversity: 0, droppedDuplicates: 0 };
    for (const layer of this.layers)
      if (layer.decide) a = this.run(thought, layer, "decide", a, (ctx) => layer.decide!(a, e, ctx));
    thought.answer = a;
    return a;
  }

  /**
   * After a real request: counters to the registry, then each layer's learning. A side-effect-free call never commits.
   * `hear` is told of each counter committed too (a session turn's own tally).
   */
  commit(thought: Thought, hear?: (layer: string, counter: string, n: number) => void): void {
    const ws = thought.query.workspaceId;
    for (const layer of this.layers) {
      if (!layer.commit || !thought.config.enabled[layer.id] || !thought.evidence) continue;
      try {
        layer.commit(thought.evidence, thought.answer);
      } catch (err) {
        this.fail(thought, layer, "commit", 0, err);
      }
    }
    for (const [layer, counts] of thought.staged)
      for (const [counter, n] of counts) {
        this.counters.add(ws, layer, counter, n);
        hear?.(layer, counter, n);
      }
  }

  /** Cumulative cost per layer in this process (bench reads it). */
  costPerLayer(): Record<string, LayerCost> {
    return Object.fromEntries([...this.costs].map(([id, c]) => [id, { ...c }]));
  }

  resetCosts(): void {
    this.costs.clear();
  }

  /** The failure guard: an off, over-budget or throwing layer leaves the state as it was; only a success stages its counts. */
  private run<S>(thought: Thought, layer: Layer, stage: Stage, state: S, hook: (ctx: LayerContext) => S): S {
    if (!thought.config.enabled[layer.id]) {
      thought.trace.push({ layer: layer.id, stage, status: "off", ms: 0 });
      return state;
    }
    const deadline = thought.query.deadline;
    if (layer.optional && deadline !== null && performance.now() > deadline) {
      addStaged(thought, "prana", "layers_skipped_budget", 1);
      thought.trace.push({ layer: layer.id, stage, status: "skipped", ms: 0 });
      return state;
    }
    const counts = new Map<string, number>();
    const ctx: LayerContext = {
      params: thought.config.params,
      count: (counter, n = 1) => void counts.set(counter, (counts.get(counter) ?? 0) + n),
    };
    const t = performance.now();
    try {
      const out = hook(ctx);
      const ms = performance.now() - t;
      this.cost(layer.id, ms, false);
      for (const [counter, n] of counts) addStaged(thought, layer.id, counter, n);
      thought.trace.push({
        layer: layer.id,
        stage,
        status: "ran",
        ms: round(ms),
        ...(counts.size ? { counts: Object.fromEntries(counts) } : {}),
      });
      return out;
    } catch (err) {
      this.fail(thought, layer, stage, performance.now() - t, err);
      return state;
    }
  }

  private fail(thought: Thought, layer: Layer, stage: Stage, ms: number, err: unknown): void {
    this.cost(layer.id, ms, true);
    addStaged(thought, layer.id, "failures", 1);
    thought.trace.push({
      layer: layer.id,
      stage,
      status: "failed",
      ms: round(ms),
      error: err instanceof Error ? err.message : String(err),
    });
  }

  private cost(id: LayerId, ms: number, failed: boolean): void {
    const c = this.costs.get(id) ?? { calls: 0, ms: 0, failures: 0 };
    c.calls++;
    c.ms += ms;
    if (failed) c.failures++;
    this.costs.set(id, c);
  }
}

function initialQuery(input: ThinkInput): QueryState {
  return {
    op: input.op,
    workspaceId: input.workspaceId,
    actorId: input.actorId,
    original: input.query,
    text: input.query,
    requestedMode: input.mode,
    // One retriever unless sabha convenes more.
    mode: input.mode === "hybrid" ? "lexical" : input.mode,
    k: input.k,
    filter: input.filter,
    expansion: [],
    denseScale: 1,
    signals: {},
    deadline: null,
  };
}

function addStaged(thought: Thought, layer: LayerId, counter: string, n: number): void {
  const m = thought.staged.get(layer) ?? new Map<string, number>();
  m.set(counter, (m.get(counter) ?? 0) + n);
  thought.staged.set(layer, m);
}

const round = (x: number) => Number(x.toFixed(4));
