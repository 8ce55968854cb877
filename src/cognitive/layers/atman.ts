// atman (the invariant self): the contract's invariants hold whatever the other layers did: scores in [0, 1], no uncited answer.
import type { Evidence } from "../types.ts";
import type { Layer } from "../types.ts";

export const atman: Layer = {
  id: "atman",
  job: "Enforces contract invariants: evidence scores finite and in [0, 1] (else repaired or dropped), and no grounded answer without citations.",
  counters: ["scores_repaired", "items_dropped_invalid", "answers_blocked_uncited"],
  weigh(e, ctx) {
    let changed = false;
    const items: Evidence[] = [];
    for (const item of e.items) {
      if (!Number.isFinite(item.score) || !item.chunk) {
        ctx.count("items_dropped_invalid");
        changed = true;
        continue;
      }
      if (item.score < 0 || item.score > 1) {
        ctx.count("scores_repaired");
        changed = true;
        items.push({ ...item, score: Math.min(1, Math.max(0, item.score)) });
        continue;
      }
      items.push(item);
    }
    return changed ? { ...e, items } : e;
  },
  decide(a, _e, ctx) {
    if (!a.accept || a.citations > 0) return a;
    ctx.count("answers_blocked_uncited");
    return { ...a, accept: false, reason: "no_evidence" };
  },
};
