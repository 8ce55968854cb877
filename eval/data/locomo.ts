// LoCoMo: one vault per conversation, one document per turn; metric = evidence recall@k of dia_ids.
import { readFileSync } from "node:fs";
import { dataFile } from "../paths.ts";
import { mean, recallAt } from "../metrics.ts";
import type { EvalQuery, EvalSet, Vault } from "../types.ts";

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface Sample {
  sample_id: string;
  conversation: Record<string, string | Turn[]>;
  qa: { question: string; evidence: string[]; category: number }[];
}

export const LOCOMO_KS = [5, 10, 25] as const;
const CATEGORY: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00Z" (the data has no zone; UTC by convention). */
export function parseLocomoDate(s: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(s.trim());
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`unparseable LoCoMo date '${s}'`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** Evidence strings split on ';' and spaces; "D:11:26" is read as D11:26, fragments like "D" are dropped. */
export function parseEvidence(evidence: readonly string[]): string[] {
  const ids = evidence.flatMap((e) => e.split(/[;\s]+/)).map((e) => e.replace(/^D:(\d+:\d+)$/, "D$1"));
  return [...new Set(ids.filter((e) => /^D\d+:\d+$/.test(e)))];
}

/** A turn as stored: "<speaker>: <text>", plus the image caption when the turn shared a photo. */
export function turnText(t: Turn): string {
  return t.blip_caption ? `${t.speaker}: ${t.text} [shared a photo: ${t.blip_caption}]` : `${t.speaker}: ${t.text}`;
}

const readSamples = (): Sample[] => JSON.parse(readFileSync(dataFile("locomo", "locomo-dev.json"), "utf8")) as Sample[];

/** sample_id -> the conversation's two speakers (the names turnText prefixes every turn with). */
export function locomoSpeakers(): Map<string, [string, string]> {
  return new Map(readSamples().map((s) => [s.sample_id, [s.conversation["speaker_a"] as string, s.conversation["speaker_b"] as string]]));
}

export function loadLocomo(): EvalSet {
  const samples = readSamples();
  const vaults: Vault[] = [];
  const queries: EvalQuery[] = [];
  let droppedNoEvidence = 0;
  for (const s of samples) {
    const docs: Vault["docs"] = [];
    for (let n = 1; Array.isArray(s.conversation[`session_${n}`]); n++) {
      const timestamp = parseLocomoDate(s.conversation[`session_${n}_date_time`] as string);
      for (const t of s.conversation[`session_${n}`] as Turn[]) docs.push({ sourcePath: `${s.sample_id}/${t.dia_id}`, content: turnText(t), timestamp });
    }
    vaults.push({ name: s.sample_id, docs });
    s.qa.forEach((q, i) => {
      const group = CATEGORY[q.category];
      if (!group) return; // category 5 (adversarial) has no evidence to retrieve
      const gold = parseEvidence(q.evidence);
      if (gold.length === 0) return void droppedNoEvidence++;
      queries.push({ id: `${s.sample_id}#${i}`, vault: s.sample_id, text: q.question, group, gold: new Set(gold) });
    });
  }
  return {
    name: "locomo",
    vaults,
    queries,
    k: Math.max(...LOCOMO_KS),
    unitOf: (sourcePath) => sourcePath.slice(sourcePath.indexOf("/") + 1),
    score: (ranked, q) => Object.fromEntries(LOCOMO_KS.map((k) => [`recall@${k}`, recallAt(ranked, q.gold, k)])),
    metrics: LOCOMO_KS.map((k) => `recall@${k}`),
    headline: "recall@10",
    references: [{ label: "DESIGN.md plain BM25", metric: "recall@10", value: 0.585 }],
    notes: [
      "one vault per conversation; one document per turn, source_path '<sample_id>/<dia_id>', text '<speaker>: <text>' + ' [shared a photo: <blip_caption>]' when present",
      "timestamp = session date (UTC)",
      `categories 1-4; evidence split on ';'/spaces, 'D:11:26' read as D11:26, malformed fragments dropped; ${droppedNoEvidence} question(s) without any evidence skipped`,
      `mean evidence ids per question ${mean(queries.map((q) => q.gold.size)).toFixed(2)}`,
    ],
  };
}
