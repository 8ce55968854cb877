// Grounded answering over the vault: retrieve, score sentences, select, answer or abstain; every step recorded.
import { randomUUID } from "node:crypto";
import { AppError } from "../../contract/errors.ts";
import type { Citation } from "../../contract/citation.ts";
import {
  GroundedAnswerRequest as Schema,
  type GroundedAnswerRequest,
  type GroundedAnswerResponse,
  type TrajectoryStep,
} from "../../contract/grounded.ts";
import { ANSWER_THRESHOLD, type AnswerPlan } from "../../domain/answering/answer.ts";
import type { Clock } from "../../ports/clock.ts";
import type { ChunkRecord } from "../../ports/documents.ts";
import type { LayerSwitches } from "../../cognitive/params.ts";
import type { CognitivePipeline, Thought } from "../../cognitive/pipeline.ts";
import type { AnswerState } from "../../cognitive/types.ts";
import type { AuditService } from "../audit/audit.ts";
import { citationOf } from "../memory/citations.ts";
import { localPlanner, type Planner } from "../planning/planner.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { timeNotes, toFilter } from "../memory/time-filter.ts";
import { currentEvidence, type SupersessionMarks, type SupersessionReader } from "../memory/prefer-current.ts";
import { rankMemory } from "../memory/rank-memory.ts";
import { askedAt } from "../memory/asked-at.ts";
import type { Retriever } from "../../search/retriever.ts";
import { yieldToIo } from "../../threads/loop-yield.ts";
import type { OpenLoop } from "../../contract/open-loops.ts";
import { asksWhatIsOpen } from "../../domain/text/question-intent.ts";
import { LOOP_CONFIDENCE, loopAnswer, loopsFor } from "./loop-answer.ts";
import { toMention, withTimes } from "./time-mentions.ts";
import { saidOn, whenAnswer } from "../../domain/time/when-answer.ts";
import { chrono } from "../../domain/time/chrono.ts";
import type { TimeMention } from "../../contract/time.ts";

/** The workspace's open loops under a path prefix (OpenLoopService.list's first page). */
export type LoopSource = (workspaceId: string, sourcePathPrefix: string | undefined) => Promise<OpenLoop[]>;

/** A question thought through without side effects: evidence, the extractive plan and the answer/abstain decision. */
export interface Deliberation {
  thought: Thought;
  chunks: ChunkRecord[];
  scoreOf: Map<number, number>;
  plan: AnswerPlan;
  decision: AnswerState;
  /** What the citations say of replacements, by chunk id. */
  marks: SupersessionMarks;
}

export interface AnswerHooks {
  onStep?(step: TrajectoryStep): void;
}

export class GroundedService {
  constructor(
    private readonly retriever: Retriever,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly cognition: CognitivePipeline,
    /** Plans the answer from the evidence (with the word knowledge it was built with; the serving process: on a worker thread). */
    private readonly planner: Planner = localPlanner(),
    /** Where "what is still open?" is answered from (issue 40 item 3); without it such questions are answered like any other. */
    private readonly openLoops?: LoopSource,
    /** Where replacements of knowledge records are read; without it no evidence is marked superseded. */
    private readonly supersessions?: SupersessionReader,
  ) {
    chrono(); // the date parser loads now: loading it inside a request blocked the loop for every other one
  }

  /** Retrieve, weigh, plan and decide: no audit event, no counters, no learning (POST /sdk/cognitive/process builds on it). */
  async deliberate(
    call: CallContext,
    req: {
      question: string;
      k: number;
      filters?: GroundedAnswerRequest["filters"];
      asked_at?: string | undefined;
      min_confidence?: number | undefined;
    },
    layers?: LayerSwitches,
  ): Promise<Deliberation> {
    const thought = this.cognition.perceive(
      {
        op: "answer",
        workspaceId: call.workspaceId,
        actorId: call.actorId,
        query: req.question,
        mode: "hybrid",
        k: req.k,
        filter: toFilter(req.filters),
      },
      layers,
    );
    const { found, marks } = await rankMemory(
      { retriever: this.retriever, supersessions: this.supersessions },
      this.cognition.retrievalQuery(thought, req.k),
      req.question,
      {
        rows: Infinity,
        filters: req.filters,
        askedAt: askedAt(req.asked_at, this.clock.now()),
        yields: call.yieldsToRequests,
      },
    );
    await yieldToIo(); // each stage is a slice of the loop: requests that came in meanwhile go first
    const evidence = this.cognition.weigh(thought, found, { need: req.k, diversity: 0 });
    const chunks = currentEvidence(
      evidence.items.map((i) => i.chunk),
      marks,
      req.question,
    );
    const scoreOf = new Map(evidence.items.map((i) => [i.chunk.id, i.score]));
    const plan = await this.planner.answer(
      req.question,
      chunks.map((c) => ({ key: c.id, text: c.text, score: scoreOf.get(c.id) ?? 0, dated: !c.undated })),
      8,
    );
    const decision = this.cognition.decide(thought, {
      confidence: plan.confidence,
      threshold: req.min_confidence ?? ANSWER_THRESHOLD,
      citations: plan.selected.length,
    });
    return { thought, chunks, scoreOf, plan, decision, marks };
  }

  async answer(
    call: CallContext,
    input: GroundedAnswerRequest,
    hooks: AnswerHooks = {},
    trajectoryId = `traj_${randomUUID()}`,
    layers?: LayerSwitches,
  ): Promise<GroundedAnswerResponse> {
    const req = Schema.parse(input);
    const steps: TrajectoryStep[] = [];
    const step = (name: TrajectoryStep["name"], started: number, detail: Record<string, unknown>) => {
      const s = { name, ms: Number((performance.now() - started).toFixed(3)), detail };
      steps.push(s);
      hooks.onStep?.(s);
    };
    const now = this.clock.now();
    // Asked when it arrived unless it says otherwise: the evidence and the notes read its relative words alike, and the
    // trajectory records the time it was read against, so a replay asks the same question.
    const asked = { ...req, asked_at: req.asked_at ?? now.toISOString() };

    let t = performance.now();
    const routed = await this.loopRoute(call, req, trajectoryId, t);
    if (routed) {
      routed.steps.forEach((s) => hooks.onStep?.(s));
      await this.record(call, trajectoryId, asked, routed.steps, {
        outcome: "answered",
        response: { ...routed, steps: undefined },
      });
      return routed;
    }
    const { thought, chunks, scoreOf, plan, decision, marks } = await this.deliberate(call, asked, layers);
    await yieldToIo(); // before the trajectory's record, a slice of its own
    this.cognition.commit(thought, call.onCounter);
    const threshold = decision.threshold;
    step("retrieve", t, {
      query: req.question,
      k: req.k,
      mode: "hybrid",
      hits: chunks.map((c) => ({
        chunk_hash: c.chunkHash,
        source_path: c.sourcePath,
        anchor: c.anchor,
        score: round(scoreOf.get(c.id) ?? 0),
      })),
      // The layers that changed something or failed, without timings so a replay matches (the full trace is process()'s).
      cognition: thought.trace
        .filter((s) => s.status === "failed" || s.status === "skipped" || s.counts !== undefined)
        .map(({ ms: _ms, ...s }) => s),
    });

    t = performance.now();
    const byId = new Map(chunks.map((c) => [c.id, c]));
    const cite = (s: { key: number; span: { start: number; end: number } }, score: number): Citation => ({
      ...citationOf(byId.get(s.key)!, score, now, s.span),
      ...marks.get(s.key),
    });
    step("score_candidates", t, {
      answer_type: plan.answerType,
      candidates: plan.ranked.map((s) => ({
        chunk_hash: byId.get(s.key)!.chunkHash,
        start: s.span.start,
        end: s.span.end,
        overlap: round(s.features.overlap),
        score: round(s.score),
      })),
    });

    t = performance.now();
    const accepted = decision.accept;
    step("select", t, {
      confidence: round(plan.confidence),
      threshold,
      selected: plan.selected.map((s) => ({
        chunk_hash: byId.get(s.key)!.chunkHash,
        start: s.span.start,
        end: s.span.end,
      })),
    });

    if (!accepted) {
      const rejected = plan.ranked.slice(0, 3).map((s) => cite(s, s.score));
      step("abstain", performance.now(), { reason: decision.reason });
      const details = { trajectory_id: trajectoryId, confidence: round(plan.confidence), threshold, rejected, steps };
      await this.record(call, trajectoryId, asked, steps, {
        outcome: "insufficient_evidence",
        error: { code: "insufficient_evidence", message: INSUFFICIENT, details: { ...details, steps: undefined } },
      });
      throw new AppError("insufficient_evidence", INSUFFICIENT, details);
    }
    const best = plan.selected[0]!;
    const when = plan.answerType === "date" ? resolveWhen(byId.get(best.key)!, best, plan.answer) : null;
    const answer = plan.saidThen
      ? saidOn(byId.get(best.key)!.authoredAt)
      : (when?.answer ?? (plan.answer ? best.text.slice(plan.answer.start, plan.answer.end) : best.text));
    const citations = plan.selected.map((s) => withTimes(cite(s, plan.confidence), byId.get(s.key)!.undated));
    step("answer", performance.now(), {
      answer,
      citations: citations.map((c) => ({ chunk_hash: c.chunk_hash, text_span: c.text_span })),
    });
    const response = {
      question: req.question,
      answer,
      answer_type: plan.answerType,
      confidence: round(plan.confidence),
      citations,
      ...(when ? { resolved_time: when.resolved } : {}),
      trajectory_id: trajectoryId,
      ...timeNotes(req.filters, now, { text: req.question, asked: askedAt(asked.asked_at, now) }),
      steps,
    };
    await this.record(call, trajectoryId, asked, steps, {
      outcome: "answered",
      response: { ...response, steps: undefined },
    });
    return response;
  }

  /** A question about what is open, answered with the open loops it is about; null when it is not one or none are open. */
  private async loopRoute(
    call: CallContext,
    req: ReturnType<typeof Schema.parse>,
    trajectoryId: string,
    started: number,
  ): Promise<GroundedAnswerResponse | null> {
    if (!this.openLoops || !asksWhatIsOpen(req.question) || (req.min_confidence ?? 0) > LOOP_CONFIDENCE) return null;
    const loops = loopsFor(req.question, await this.openLoops(call.workspaceId, req.filters?.source_path_prefix));
    return loops.length ? loopAnswer(req.question, loops, trajectoryId, started) : null;
  }

  /**
   * One event per step plus the request and outcome, all under the trajectory id, in one append. The outcome leaves the
   * steps out: they are the events just before it (logging them twice doubled a trajectory's bytes, and its write).
   */
  private async record(
    call: CallContext,
    trajectoryId: string,
    req: unknown,
    steps: TrajectoryStep[],
    outcome: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(call, [
      this.audit.draft(call, "grounded.request", { request: req }, trajectoryId),
      ...steps.map((s) => this.audit.draft(call, `grounded.step.${s.name}`, s, trajectoryId)),
      this.audit.draft(call, "grounded.outcome", outcome, trajectoryId),
    ]);
  }
}

/** A when-question's answer from the time expression in its sentence, resolved against the chunk's occurred_at. */
function resolveWhen(
  chunk: ChunkRecord,
  best: { span: { start: number; end: number } },
  answer: { start: number; end: number } | null,
): { answer: string; resolved: TimeMention } | null {
  const at = best.span.start;
  const focus = answer && { start: at + answer.start, end: at + answer.end };
  const when = whenAnswer(chunk.text, best.span, focus, { instant: chunk.authoredAt });
  // Undated text's "yesterday" would be read against the ingest time: the answer keeps the words instead.
  if (!when || (chunk.undated && when.mention.relative)) return null;
  return { answer: when.answer, resolved: toMention(when.mention, chunk.authoredAt, at) };
}

const INSUFFICIENT = "the vault does not hold evidence good enough to answer";
const round = (x: number) => Number(x.toFixed(6));
