// bhava_monitor (feeling): notices urgency and distress in a query; an urgent query gets evidence about incidents first.
import { adjustHead } from "../evidence.ts";
import type { Layer } from "../types.ts";

const URGENT =
  /\b(urgent(ly)?|asap|emergency|immediately|critical|outage|incident|sev ?[01]|p0|blocker|blocking|down right now|production is down)\b/i;
const NEGATIVE =
  /\b(angry|frustrat(ed|ing)|annoy(ed|ing)|upset|furious|terrible|awful|broken|complain(t|ed|ing)?|unacceptable|disappointed)\b/i;
/** Evidence that speaks of the same kind of trouble. */
const URGENT_EVIDENCE =
  /\b(urgent|emergency|critical|outage|incident|postmortem|post-mortem|rollback|hotfix|sev ?[0-2]|p0|p1|escalat(e|ed|ion)|on-?call|runbook)\b/i;

export const bhavaMonitor: Layer = {
  id: "bhava_monitor",
  job: "Detects urgency and negative sentiment in the query (signals in the trace); for urgent queries, boosts evidence about incidents, outages and runbooks.",
  counters: ["urgent_queries", "negative_queries", "urgent_evidence_boosted"],
  optional: true,
  perceive(q, ctx) {
    const urgent = URGENT.test(q.text);
    const negative = NEGATIVE.test(q.text);
    if (urgent) ctx.count("urgent_queries");
    if (negative) ctx.count("negative_queries");
    return urgent || negative ? { ...q, signals: { ...q.signals, urgent, negative } } : q;
  },
  weigh(e, ctx) {
    if (e.query.signals.urgent !== true) return e;
    const boost = ctx.params.bhava_monitor.boost;
    return adjustHead(e, (item) => {
      if (!URGENT_EVIDENCE.test(item.chunk.text)) return null;
      ctx.count("urgent_evidence_boosted");
      return { delta: boost, flag: "urgent" };
    });
  },
};
