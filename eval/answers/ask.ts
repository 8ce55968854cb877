// One question through the real service: the default call, and for a low-confidence abstention the would-be answer.
import { AppError } from "../../src/contract/errors.ts";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import type { FullRuntime } from "../../src/main.ts";
import type { CallContext } from "../../src/ports/call-context.ts";

export interface Outcome {
  /** The service's confidence (0 when nothing was retrieved). */
  confidence: number;
  /** False when the service found no candidate sentence at all (abstains at any threshold). */
  evidence: boolean;
  /** The service answered at its default threshold. */
  answeredByDefault: boolean;
  /** The answer at min_confidence 0: the real answer, or the one withheld by the threshold. */
  answer: string | null;
  /** citations[i].text_span at min_confidence 0, best first. */
  spans: string[];
  topSource: string | null;
  /** The period a when-question's answer resolved to (resolved_time), when it did. */
  resolved?: { from: number; to: number } | undefined;
  /** Wall time of the default call. */
  ms: number;
}

export async function ask(runtime: FullRuntime, call: CallContext, question: string): Promise<Outcome> {
  const t = performance.now();
  const first = await attempt(runtime, call, question);
  const ms = performance.now() - t;
  if (!(first instanceof AppError)) return { ...fromResponse(first), answeredByDefault: true, ms };
  const details = first.details as { confidence: number; steps: { name: string; detail: { reason?: string } }[] };
  const reason = details.steps.find((s) => s.name === "abstain")?.detail.reason;
  if (reason === "no_evidence")
    return {
      confidence: details.confidence,
      evidence: false,
      answeredByDefault: false,
      answer: null,
      spans: [],
      topSource: null,
      ms,
    };
  // Below the threshold: ask again without one, to know what the withheld answer was (for the threshold sweep).
  const forced = await attempt(runtime, call, question, 0);
  // Confidence 0 (no span of the asked kind) is withheld at any floor: it abstains at every threshold, like "no evidence".
  if (forced instanceof AppError) {
    const rejected = (forced.details as { rejected: { text_span: string; source_path: string }[] }).rejected; // the evidence it cites while abstaining
    return {
      confidence: 0,
      evidence: false,
      answeredByDefault: false,
      answer: null,
      spans: rejected.map((c) => c.text_span),
      topSource: rejected[0]?.source_path ?? null,
      ms,
    };
  }
  return { ...fromResponse(forced), answeredByDefault: false, ms };
}

async function attempt(
  runtime: FullRuntime,
  call: CallContext,
  question: string,
  minConfidence?: number,
): Promise<GroundedAnswerResponse | AppError> {
  try {
    return await runtime.grounded.answer(call, {
      question,
      ...(minConfidence !== undefined ? { min_confidence: minConfidence } : {}),
    });
  } catch (err) {
    if (err instanceof AppError && err.code === "insufficient_evidence") return err;
    throw err;
  }
}

function fromResponse(r: GroundedAnswerResponse): Omit<Outcome, "answeredByDefault" | "ms"> {
  return {
    confidence: r.confidence,
    evidence: true,
    answer: r.answer,
    spans: r.citations.map((c) => c.text_span),
    topSource: r.citations[0]?.source_path ?? null,
    resolved: r.resolved_time && { from: Date.parse(r.resolved_time.from), to: Date.parse(r.resolved_time.to) },
  };
}
