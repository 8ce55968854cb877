// sankalpa (intention): a query about what is left to do is a goal; evidence holding open loops (markers, open questions, unchecked items) serves it first.
import { findOpenLoops } from "../../domain/knowledge/open-loops.ts";
import { adjustHead } from "../evidence.ts";
import type { Layer } from "../types.ts";

const GOAL =
  /\b(todos?|to-dos?|to do|next steps?|open loops?|pending|unfinished|outstanding|remaining work|action items?|follow[- ]?ups?|what(?:'s| is) left|still (?:need|have) to)\b/i;

export const sankalpa: Layer = {
  id: "sankalpa",
  job: "Recognizes goal queries (todos, next steps, open loops, pending work) and boosts evidence holding open loops (markers, open questions, unchecked items).",
  counters: ["goal_queries", "open_loop_chunks_boosted"],
  optional: true,
  perceive(q, ctx) {
    if (!GOAL.test(q.text)) return q;
    ctx.count("goal_queries");
    return { ...q, signals: { ...q.signals, goal: "open_loops" } };
  },
  weigh(e, ctx) {
    if (e.query.signals.goal !== "open_loops") return e;
    const boost = ctx.params.sankalpa.boost;
    return adjustHead(e, (item) => {
      if (findOpenLoops(item.chunk.text).length === 0) return null;
      ctx.count("open_loop_chunks_boosted");
      return { delta: boost, flag: "open_loop" };
    });
  },
};
