// LongMemEval-S: one vault per question holding its haystack sessions (user turns only); session-level metrics.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { dataFile } from "../paths.ts";
import { ndcgLongMemEval, recallAll, recallAny } from "../metrics.ts";
import type { EvalQuery, EvalSet, Vault } from "../types.ts";

interface Item {
  question_id: string;
  question_type: string;
  question: string;
  question_date: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: { role: string; content: string; has_answer?: boolean }[][];
  answer_session_ids: string[];
}

const K = 5;
/** Separates a repeated session id's copies in source_path; stripped again when scoring. */
const COPY = "~";

/** "2023/05/20 (Sat) 07:47" -> "2023-05-20T07:47:00Z". */
export function parseLongMemEvalDate(s: string): string {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) \(\w+\) (\d{2}):(\d{2})$/.exec(s.trim());
  if (!m) throw new Error(`unparseable LongMemEval date '${s}'`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00Z`;
}

export function loadLongMemEval(): EvalSet {
  const items = JSON.parse(gunzipSync(readFileSync(dataFile("longmemeval", "longmemeval-s-dev40.json.gz"))).toString("utf8")) as Item[];
  const vaults: Vault[] = [];
  const queries: EvalQuery[] = [];
  let abstention = 0;
  let noGold = 0;
  let repeated = 0;
  for (const item of items) {
    if (item.question_id.endsWith("_abs")) {
      abstention++;
      continue;
    }
    const seen = new Map<string, number>();
    const withAnswer = new Set<string>();
    const docs: Vault["docs"] = [];
    item.haystack_sessions.forEach((session, i) => {
      const id = item.haystack_session_ids[i]!;
      const copy = seen.get(id) ?? 0;
      seen.set(id, copy + 1);
      if (copy > 0) repeated++;
      const user = session.filter((t) => t.role === "user");
      if (user.some((t) => t.has_answer)) withAnswer.add(id);
      const content = user.map((t) => t.content.trim()).filter(Boolean).join("\n\n");
      if (!content) return;
      const date = item.haystack_dates[i];
      docs.push({ sourcePath: copy > 0 ? `${id}${COPY}${copy}` : id, content, ...(date ? { timestamp: parseLongMemEvalDate(date) } : {}) });
    });
    const gold = new Set(item.answer_session_ids.filter((id) => withAnswer.has(id)));
    if (gold.size === 0) {
      noGold++;
      continue;
    }
    vaults.push({ name: `lme-${item.question_id}`, docs });
    const askedAt = parseLongMemEvalDate(item.question_date);
    queries.push({ id: item.question_id, vault: `lme-${item.question_id}`, text: item.question, group: item.question_type, gold, askedAt });
  }
  return {
    name: "longmemeval",
    vaults,
    queries,
    k: 50,
    unitOf: (sourcePath) => sourcePath.split(COPY)[0]!,
    score: (ranked, q) => ({
      [`recall_any@${K}`]: recallAny(ranked, q.gold, K),
      [`recall_all@${K}`]: recallAll(ranked, q.gold, K),
      [`ndcg_any@${K}`]: ndcgLongMemEval(ranked, q.gold, K),
    }),
    metrics: [`recall_any@${K}`, `recall_all@${K}`, `ndcg_any@${K}`],
    headline: `recall_all@${K}`,
    references: [],
    notes: [
      "one vault per question; a session document = its user turns joined by blank lines; timestamp = haystack date",
      "asked_at = question_date (the question's own asking time: its relative words are read against it)",
      `skipped ${abstention} '_abs' question(s) and ${noGold} question(s) whose answer sessions have no has_answer user turn`,
      "gold = answer_session_ids with a has_answer user turn; a session's rank = rank of its best chunk (50 chunks requested)",
      `${repeated} repeated haystack session id(s) ingested as separate documents and scored as one session`,
      "ndcg_any follows LongMemEval's eval_utils discount (rank 1 undiscounted, rank i>=2 / log2(i))",
    ],
  };
}
