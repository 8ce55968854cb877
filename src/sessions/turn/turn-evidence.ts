// What a turn's tool results add up to: the citations it used, the pack it read, and the post-turn reflection check.
import type { SessionEventData } from "../../contract/events.ts";
import type { Citation } from "../../contract/citation.ts";
import type { StreamEvent } from "../../ports/event-log.ts";
import { claimsOf } from "./claims.ts";

type Outcome = SessionEventData<"tool_outcome">;
type Result = Record<string, unknown>;

/**
 * Citations in the turn's successful tool results (answers, hits, pack items, open loops, delegated answers), first
 * seen first, one per chunk and span; a span inside another cited span of the same chunk (an answer's sentence within
 * a recalled chunk) is left out, since the wider citation already proves it.
 */
export function turnCitations(events: readonly StreamEvent[]): Citation[] {
  const seen = new Map<string, Citation>();
  for (const o of outcomes(events)) {
    const r = o.result;
    const nested = [...list(r.items), ...list(r.loops)].map((i) => (i as { citation?: unknown }).citation);
    const found = [...list(r.citations), ...list(r.hits), ...nested] as (Citation | undefined)[];
    for (const c of found) {
      const key = c?.chunk_hash ? `${c.chunk_hash}\u0000${c.text_span}` : null;
      if (key && !seen.has(key)) seen.set(key, c!);
    }
  }
  const all = [...seen.values()];
  const within = (c: Citation, o: Citation) =>
    o !== c &&
    o.chunk_hash === c.chunk_hash &&
    o.text_span.length > c.text_span.length &&
    o.text_span.includes(c.text_span);
  return all.filter((c) => !all.some((o) => within(c, o)));
}

/** The context pack a turn read, as the retrieval event summarizes it. */
export function turnPack(
  events: readonly StreamEvent[],
): { items: number; used_tokens: number; budget_tokens: number } | null {
  const pack = outcomes(events).findLast((o) => o.tool_name === "service_pack")?.result;
  return pack
    ? {
        items: list(pack.items).length,
        used_tokens: Number(pack.used_tokens ?? 0),
        budget_tokens: Number(pack.budget_tokens ?? 0),
      }
    : null;
}

/**
 * What the model said in the turn, from its tokens: a step's text counts once the step got through (its tool calls
 * began or the turn answered); a step that failed over to the next provider (transport_diagnostic) said nothing.
 * Read from the log, so a turn resumed after an approval (or a restart) keeps what it said before the pause.
 */
export function turnText(turnEvents: readonly StreamEvent[]): string {
  let [said, step] = ["", ""];
  for (const e of turnEvents) {
    if (e.type === "token") step += (e.data as { text: string }).text;
    else if (e.type === "transport_diagnostic") step = "";
    else if (STEP_ENDS.has(e.type)) [said, step] = [said + step, ""];
  }
  return said + step;
}

/** Events that follow a provider step that got through: its tool calls begin. */
const STEP_ENDS = new Set(["tool_batch", "tool_validation_error", "policy_decision", "tool_call", "approval_required"]);

const outcomes = (events: readonly StreamEvent[]) =>
  events.flatMap((e) =>
    e.type === "tool_outcome" && ["ok", "artifact"].includes((e.data as Outcome).status)
      ? [e.data as Outcome & { result: Result }]
      : [],
  );
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => !STOP.has(w)));
const STOP = new Set([
  "that",
  "this",
  "with",
  "from",
  "have",
  "were",
  "they",
  "there",
  "their",
  "what",
  "which",
  "when",
  "memory",
  "holds",
  "evidence",
  "answers",
]);

/**
 * Every sentence of the response that makes a claim must be backed: most of its words occur in one cited span.
 * Citation marks, quotes of cited spans and "Evidence:" framing are no claim (claims.ts); nor is saying memory holds no evidence.
 */
export function reflect(
  text: string,
  citations: readonly Citation[],
): { check: string; passed: boolean; detail: string } {
  const spans = citations.map((c) => words(c.text_span));
  const claims = claimsOf(
    text,
    citations.map((c) => c.text_span),
  ).filter((s) => words(s).size > 0);
  const unbacked = claims.filter((s) => {
    const w = [...words(s)];
    return !spans.some((span) => w.filter((x) => span.has(x)).length >= Math.ceil(w.length * 0.6));
  });
  const check = "every sentence of the response is backed by a cited span";
  if (claims.length === 0) return { check, passed: true, detail: "the response makes no claim" };
  return {
    check,
    passed: unbacked.length === 0,
    detail: unbacked.length
      ? `${unbacked.length} of ${claims.length} sentences have no citation behind them: "${unbacked[0]!.slice(0, 120)}"`
      : `${claims.length} of ${claims.length} sentences backed by ${citations.length} citations`,
  };
}
