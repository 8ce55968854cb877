// viveka (discernment): tells good evidence from bad. Near-duplicates of better evidence and injection-like text sink.
import { isNearDuplicate } from "../../domain/retrieval/similarity.ts";
import { nudge, byScore, headSize } from "../evidence.ts";
import { perChunk } from "../per-chunk.ts";
import type { Evidence, Layer } from "../types.ts";

// Text that tries to instruct the reading model rather than inform it (prompt injection).
const INJECTION =
  /\b(ignore|disregard|forget) (all |any )?(the )?(previous|prior|above|earlier) (instructions|prompts?|rules|messages)\b|\byou are now\b|\bsystem prompt\b|\bnew instructions:|<\|im_start\|>|\[\/?INST\]|\bdo anything now\b|\bjailbreak\b/i;

export function looksLikeInjection(text: string): boolean {
  return INJECTION.test(text);
}

// Chunk rows are shared between recalls (the store keeps hot ones), so each is scanned once, not per recall.
const injectionIn = perChunk((chunk) => looksLikeInjection(chunk.text));

export const viveka: Layer = {
  id: "viveka",
  job: "Discriminates evidence: injection-like text is flagged and demoted; a near-duplicate (term Jaccard >= duplicateJaccard) of better evidence is demoted in recall and answers, dropped in packs.",
  counters: ["injection_flagged", "chunks_demoted_duplicate", "chunks_dropped_duplicate"],
  weigh(e, ctx) {
    const { duplicateJaccard, duplicatePenalty, injectionPenalty } = ctx.params.viveka;
    const head = headSize(e);
    const kept: Evidence[] = [];
    const out: Evidence[] = [];
    let changed = false;
    let dropped = 0;
    for (let i = 0; i < e.items.length; i++) {
      let item = e.items[i]!;
      if (i < head) {
        if (injectionIn(item.chunk)) {
          ctx.count("injection_flagged");
          item = nudge(item, -injectionPenalty, "injection");
          changed = true;
        }
        if (kept.some((k) => isNearDuplicate(k.candidate, item.candidate, duplicateJaccard))) {
          changed = true;
          if (e.query.op === "pack") {
            ctx.count("chunks_dropped_duplicate");
            dropped++;
            continue;
          }
          ctx.count("chunks_demoted_duplicate");
          item = nudge(item, -duplicatePenalty, "duplicate");
        } else kept.push(item);
      }
      out.push(item);
    }
    return changed ? { ...e, items: byScore(out), droppedDuplicates: e.droppedDuplicates + dropped } : e;
  },
};
