// `node --import tsx eval/answers/tune.ts [--cv] [--cv-sentences] [--fit-spans [--binary]] [--fit] [--cv-confidence] [--gate=a,b] [--features=a,b]`: the TUNE
// split only (XQuAD even articles, LoCoMo conv-26/30). Prints answer quality by question kind; --cv cross-validates the span
// scorer over the tune vaults, --cv-sentences the weight of SENTENCE's indirect matches; --fit-spans fits SPAN (src/domain/answering/span-score.ts; a ranking, see ranking.ts) and scans SPAN_MIN;
// --fit fits CONFIDENCE (src/domain/answering/answer.ts), optionally on a subset of its features; --cv-confidence cross-validates it (--gate=a,b: as if a row with one of these features at 1 were withheld at any floor, for --fit too; eleventh round in eval/answers/README.md); --ablate gives each span feature's paired change. The modes live in tune/. Never reads the test split.
import { ANSWER_THRESHOLD, CONFIDENCE } from "../../src/domain/answering/answer.ts";
import { answerType } from "../../src/domain/answering/answer-type.ts";
import { progress } from "../progress.ts";
import { textTable } from "../table.ts";
import { answeredAt, locomoMetrics, xquadMetrics } from "./score.ts";
import { crossValidateConfidence, fitConfidence } from "./tune/confidence.ts";
import { harvest, pct, type Harvested } from "./tune/harvest.ts";
import { crossValidateSentences } from "./tune/sentences.ts";
import { ablate, crossValidate, crossValidateEndToEnd, fitSpans } from "./tune/spans.ts";

function report(xq: Harvested[], lo: Harvested[]): void {
  const kinds = [...new Set(xq.map((r) => answerType(r.q.text)))];
  const rows = kinds.map((k) => {
    const rs = xq.filter((r) => answerType(r.q.text) === k);
    const m = xquadMetrics(rs, 0);
    return [k, rs.length, pct(m.span_hit), pct(m.em), pct(m.f1)];
  });
  const all = xquadMetrics(xq, 0);
  rows.push(["all", xq.length, pct(all.span_hit), pct(all.em), pct(all.f1)]);
  process.stdout.write(
    `\nXQuAD tune, never abstaining, by answer type:\n${textTable(["type", "n", "span_hit", "em", "f1"], rows)}\n`,
  );
  const cats = [...new Set(lo.map((r) => r.q.group))];
  const lrows = cats.map((c) => {
    const rs = lo.filter((r) => r.q.group === c);
    const m = locomoMetrics(rs, 0);
    return [
      c,
      rs.length,
      pct(m.top_cite_evidence),
      pct(m.contained_spans),
      pct(m.contained_answer),
      pct(m.contained_spans_extractable),
    ];
  });
  process.stdout.write(
    `\nLoCoMo tune, never abstaining:\n${textTable(["category", "n", "top_cite_evidence", "contained spans", "contained answer", "contained (extractable)"], lrows)}\n`,
  );
  const sweep = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7].map((t) => {
    const x = xquadMetrics(xq, t);
    const l = locomoMetrics(lo, t);
    return [
      t.toFixed(1),
      pct(x.abstention),
      pct(x.f1),
      pct(x.span_hit_answered),
      pct(l.false_abstention),
      pct(l.top_cite_evidence_answered),
      pct(l.correct_abstention_5),
    ];
  });
  process.stdout.write(
    `\nthreshold trade-off on tune (current CONFIDENCE ${JSON.stringify(CONFIDENCE)}, threshold ${ANSWER_THRESHOLD}):\n${textTable(["t", "xq abstain", "xq f1", "xq span_hit|ans", "lo false abst", "lo evid|ans", "lo cat5 abst"], sweep)}\n`,
  );
}

const args = process.argv.slice(2);
const xq = await harvest("xquad");
const lo = await harvest("locomo-answers");
report(xq, lo);
const only =
  args
    .find((a) => a.startsWith("--features="))
    ?.slice("--features=".length)
    .split(",") ?? null;
const gate = args
  .find((a) => a.startsWith("--gate="))
  ?.slice("--gate=".length)
  .split(",");
if (args.includes("--fit")) fitConfidence([...xq, ...lo], only, gate);
if (args.includes("--cv-confidence")) crossValidateConfidence([...xq, ...lo], only, gate);
if (args.includes("--cv")) crossValidate([...xq, ...lo.filter((r) => r.q.extractable)], only);
if (args.includes("--cv")) crossValidateEndToEnd([...xq, ...lo.filter((r) => r.q.extractable)], only);
if (args.includes("--ablate")) ablate([...xq, ...lo.filter((r) => r.q.extractable)]);
if (args.includes("--cv-sentences")) crossValidateSentences(xq, lo);
if (args.includes("--fit-spans")) fitSpans([...xq, ...lo.filter((r) => r.q.extractable)], !args.includes("--binary"));
progress(
  `answered at ${ANSWER_THRESHOLD}: xquad ${xq.filter((r) => answeredAt(r.o, ANSWER_THRESHOLD)).length}/${xq.length}, locomo ${lo.filter((r) => answeredAt(r.o, ANSWER_THRESHOLD)).length}/${lo.length}`,
);
