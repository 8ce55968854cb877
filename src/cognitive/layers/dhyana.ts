// dhyana (focus): a pack's items in maximal-marginal-relevance order, so the budget goes to relevant and different evidence.
import { mmrOrder } from "../../domain/retrieval/mmr.ts";
import { headSize } from "../evidence.ts";
import type { Layer } from "../types.ts";

export const dhyana: Layer = {
  id: "dhyana",
  job: "Orders a pack's candidates by MMR (the request's diversity: relevance against similarity to what is already picked); off, packs take pure relevance order.",
  counters: ["packs_focused", "items_reordered"],
  optional: true,
  weigh(e, ctx) {
    if (e.query.op !== "pack" || e.diversity <= 0 || e.items.length < 2) return e;
    // MMR picks the head (O(n x picks) similarities); the tail keeps relevance order.
    const picks = headSize(e);
    const order: number[] = [];
    for (const idx of mmrOrder(
      e.items.map((i) => ({ relevance: i.score, terms: i.candidate.terms })),
      e.diversity,
    )) {
      order.push(idx);
      if (order.length === picks) break;
    }
    const picked = new Set(order);
    for (let i = 0; i < e.items.length; i++) if (!picked.has(i)) order.push(i);
    const moved = order.filter((idx, pos) => idx !== pos).length;
    ctx.count("packs_focused");
    if (moved > 0) ctx.count("items_reordered", moved);
    return { ...e, items: order.map((idx) => e.items[idx]!) };
  },
};
