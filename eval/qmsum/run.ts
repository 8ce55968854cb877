// `npm run eval -- qmsum`: do the meeting copilot's decisions and action items cite turns inside QMSum's gold spans, vs random turns?
import type { MeetingExtractResponse } from "../../src/contract/meetings.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { MeetingService } from "../../src/services/knowledge/meetings.ts";
import { progress } from "../progress.ts";
import { provenance, type Provenance } from "../provenance.ts";
import { writeResult } from "../report.ts";
import { textTable } from "../table.ts";
import { KINDS, loadQmsum, QUERY_FILTERS, type Kind, type Meeting, type Split } from "./data.ts";
import { addTally, emptyTally, randomItems, rates, tallyMeeting, type Rates, type Tally } from "./score.ts";

export const QMSUM_SET_NAMES = ["qmsum"];
/** Random draws per meeting and kind (as many items citing as many turns as extracted); the baseline is their mean. */
export const RANDOM_DRAWS = 20;
const GROUPS = ["tune", "test", "all"] as const;
type Group = (typeof GROUPS)[number];

export interface QmsumMeetingRow {
  id: string;
  split: Split;
  turns: number;
  queries: Record<Kind, number>;
  items: Record<Kind | "open_questions" | "summary", number>;
}

export interface QmsumResult extends Provenance {
  set: "qmsum";
  meetings: number;
  queryFilters: Record<Kind, string>;
  randomDraws: number;
  /** Per split and kind: the extractor's figures and the mean of RANDOM_DRAWS random draws of as many turns. */
  results: Record<Group, Record<Kind, { smriti: Rates; random: Rates }>>;
  rows: QmsumMeetingRow[];
  timing: { extractMs: number };
}

const ITEMS: Record<Kind, (r: MeetingExtractResponse) => { citations: { anchor: string }[] }[]> = {
  decision: (r) => r.decisions,
  action: (r) => r.action_items,
};

/** QMSum turn = transcript line - 1 (data.ts writes one line per turn), read from each citation's "L<a>-L<b>" anchor. */
function citedTurns(item: { citations: { anchor: string }[] }): number[] {
  return item.citations.map((c) => {
    const m = /^L(\d+)-/.exec(c.anchor);
    if (!m) throw new Error(`unexpected anchor ${c.anchor}`);
    return Number(m[1]) - 1;
  });
}

export function runQmsumEval(meetings: readonly Meeting[] = loadQmsum()): QmsumResult {
  const service = new MeetingService(systemClock);
  const ours = new Map<string, Tally>();
  const random = new Map<string, Tally>();
  const rows: QmsumMeetingRow[] = [];
  let extractMs = 0;
  for (const m of meetings) {
    const started = performance.now();
    const r = service.extract({ transcript: m.transcript, source_path: `qmsum/${m.id}` });
    extractMs += performance.now() - started;
    KINDS.forEach((kind, k) => {
      const predicted = ITEMS[kind](r).map(citedTurns);
      for (const g of [m.split, "all"] as const)
        ours.set(
          `${g}/${kind}`,
          addTally(ours.get(`${g}/${kind}`) ?? emptyTally(), tallyMeeting(m.queries, kind, predicted, m.turns)),
        );
      for (let d = 0; d < RANDOM_DRAWS; d++) {
        const draw = tallyMeeting(
          m.queries,
          kind,
          randomItems(predicted, m.turns, (m.index * 2 + k) * 7919 + d + 1),
          m.turns,
        );
        for (const g of [m.split, "all"] as const)
          random.set(`${g}/${kind}/${d}`, addTally(random.get(`${g}/${kind}/${d}`) ?? emptyTally(), draw));
      }
    });
    rows.push({
      id: m.id,
      split: m.split,
      turns: m.turns,
      queries: {
        decision: m.queries.filter((q) => q.kinds.includes("decision")).length,
        action: m.queries.filter((q) => q.kinds.includes("action")).length,
      },
      items: {
        decision: r.decisions.length,
        action: r.action_items.length,
        open_questions: r.open_questions.length,
        summary: r.summary.length,
      },
    });
  }
  const results = Object.fromEntries(
    GROUPS.map((g) => [
      g,
      Object.fromEntries(
        KINDS.map((kind) => [
          kind,
          { smriti: rates(ours.get(`${g}/${kind}`) ?? emptyTally()), random: meanRandom(random, g, kind) },
        ]),
      ),
    ]),
  ) as QmsumResult["results"];
  return {
    set: "qmsum",
    ...provenance(),
    meetings: meetings.length,
    queryFilters: { decision: QUERY_FILTERS.decision.source, action: QUERY_FILTERS.action.source },
    randomDraws: RANDOM_DRAWS,
    results,
    rows,
    timing: { extractMs: Math.round(extractMs) },
  };
}

/** Each draw's tallies are summed over meetings (like the extractor's); the baseline is the mean of the draws' rates. */
function meanRandom(random: Map<string, Tally>, g: Group, kind: Kind): Rates {
  const draws = Array.from({ length: RANDOM_DRAWS }, (_, d) => rates(random.get(`${g}/${kind}/${d}`) ?? emptyTally()));
  const mean = (f: (r: Rates) => number) => draws.reduce((s, r) => s + f(r), 0) / draws.length;
  return { ...draws[0]!, hitRate: mean((r) => r.hitRate), precision: mean((r) => r.precision) };
}

export function runQmsumSets(): void {
  const r = runQmsumEval();
  const pct = (x: number) => (Number.isNaN(x) ? "" : (100 * x).toFixed(1));
  const rows = GROUPS.flatMap((g) =>
    KINDS.map((kind) => {
      const { smriti, random } = r.results[g][kind];
      return [
        `${g} ${kind}`,
        smriti.queries,
        smriti.items,
        pct(smriti.hitRate),
        pct(random.hitRate),
        pct(smriti.precision),
        pct(random.precision),
        pct(smriti.coverage),
      ];
    }),
  );
  process.stdout.write(
    `\n== qmsum  (${r.meetings} meetings; commit ${r.commit}${r.dirtySrc ? "+local changes" : ""})\n`,
  );
  process.stdout.write(
    `${textTable(["split kind", "queries", "items", "hit %", "random hit %", "precision %", "random precision %", "gold coverage %"], rows)}\n`,
  );
  progress(`qmsum: extraction ${r.timing.extractMs} ms for ${r.meetings} meetings`);
  progress(`wrote ${writeResult("qmsum", r)}`);
}
