// `node --import tsx eval/qmsum/tune.ts`: per-cue figures on the tune split only (even-index meetings), for choosing cue lists.
import { lineAt } from "../../src/domain/text/lines.ts";
import { AGREEMENT, DECISION_CUES } from "../../src/domain/meetings/decisions.ts";
import { parseTranscript } from "../../src/domain/meetings/transcript.ts";
import { utterancesOf } from "../../src/domain/meetings/utterances.ts";
import { textTable } from "../table.ts";
import { KINDS, loadQmsum, type Kind } from "./data.ts";

const CUES: Record<Kind, [string, RegExp][]> = {
  decision: [
    ...DECISION_CUES.map((re, i): [string, RegExp] => [`DECISION_CUES[${i}]`, re]),
    ["AGREEMENT (the accepting sentence)", AGREEMENT],
  ],
  // Candidate action forms, for the record: none rose above the gold coverage on the 7 tune queries (README).
  action: [
    ["I'll / I will + verb", /\bi(?:'ll| will|'m going to|'m gonna| am going to)\s+\w+/i],
    [
      "we need to / we'll / we have to + verb",
      /\bwe(?:'ll| will|'re going to| need to|'ll need to| have to|'ve got to| must)\s+\w+/i,
    ],
    ["you'll / you need to + verb", /\byou(?:'ll| will|'re going to| need to| have to)\s+\w+/i],
  ],
};

const meetings = loadQmsum().filter((m) => m.split === "tune");
for (const kind of KINDS) {
  const rows: (string | number)[][] = [];
  let queries = 0;
  const stats = new Map<string, { n: number; inside: number; hit: Set<string> }>(
    CUES[kind].map(([name]) => [name, { n: 0, inside: 0, hit: new Set() }]),
  );
  let turns = 0;
  let covered = 0;
  for (const m of meetings) {
    const qs = m.queries.filter((q) => q.kinds.includes(kind));
    if (qs.length === 0) continue;
    queries += qs.length;
    const inQuery = (line: number) =>
      qs.map((q, i) => (q.spans.some(([a, b]) => line >= a && line <= b) ? i : -1)).filter((i) => i >= 0);
    turns += m.turns;
    for (let t = 0; t < m.turns; t++) if (inQuery(t).length) covered++;
    const t = parseTranscript(m.transcript);
    for (const u of utterancesOf(m.transcript, t.turns)) {
      const hits = inQuery(lineAt(t.lineStarts, u.start) - 1);
      for (const [name, re] of CUES[kind]) {
        if (!re.test(u.norm)) continue;
        const s = stats.get(name)!;
        s.n++;
        if (hits.length) s.inside++;
        for (const i of hits) s.hit.add(`${m.id}/${i}`);
      }
    }
  }
  for (const [name, s] of stats) rows.push([name, s.n, s.n ? ((100 * s.inside) / s.n).toFixed(1) : "", s.hit.size]);
  process.stdout.write(
    `\n${kind}: ${queries} tune queries; gold coverage ${((100 * covered) / Math.max(1, turns)).toFixed(1)}% of their meetings' turns\n`,
  );
  process.stdout.write(`${textTable(["cue", "sentences", "inside gold %", "queries hit"], rows)}\n`);
}
