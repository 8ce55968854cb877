// `npm run bench:small-writes [-- --rounds=3 --documents=2000 --postgres]`: only the one-chunk document ingest of `npm run
// bench` (scenarios/small-ingest.ts), for measuring a change to the write path without the whole bench. Prints the rounds.
// --postgres: on PostgreSQL (SMRITI_BENCH_DATABASE_URL, else a throwaway cluster of the installed server).
// --recall: instead, recall p50 / p99 over HTTP idle and while 8 writers send --documents one-chunk documents, on a vault
// of --chunks (10,000) chunks, in --cycles (3) idle-then-busy windows (scenarios/small-contention.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadGloveEmbedder } from "../src/embed/glove.ts";
import { loadVocabulary } from "./corpus/vocab.ts";
import { load1 } from "./lib/machine.ts";
import { benchSmallIngest, type SmallIngest } from "./scenarios/small-ingest.ts";
import { openDatabase } from "./scenarios/postgres.ts";
import { benchRecallUnderSmallWrites } from "./scenarios/small-contention.ts";
import type { LatencySummary } from "./lib/stats.ts";

const value = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const dir = mkdtempSync(join(tmpdir(), "smriti-small-writes-"));
const database = process.argv.includes("--postgres") ? await openDatabase() : null;
if (process.argv.includes("--postgres") && !database) throw new Error("--postgres: no PostgreSQL installed");
const loadAtStart = load1();
const env = database ? { env: { SMRITI_DATABASE_URL: database.url } } : {};
try {
  if (process.argv.includes("--recall")) await recallUnderWrites();
  else await smallWrites();
} finally {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
}

async function recallUnderWrites(): Promise<void> {
  const res = await benchRecallUnderSmallWrites(dir, loadVocabulary(), await loadGloveEmbedder(), {
    seed: 42,
    vaultChunks: Number(value("chunks") ?? 10_000),
    documents: Number(value("documents") ?? 3000),
    cycles: Number(value("cycles") ?? 3),
    ...env,
  });
  const line = (name: string, l: LatencySummary) => `${name}: ${l.n} recalls, p50 ${l.p50} ms, p99 ${l.p99} ms`;
  const ingest = `${res.ingest.documents} documents in ${res.ingest.seconds} s (${Math.round(res.ingest.documents / res.ingest.seconds)}/s)`;
  process.stdout.write(
    `${database ? `${database.version}\n` : ""}${line("idle", res.idle)}\n${line("during the ingest", res.duringIngest)}` +
      `\np99 during / idle: x${(res.duringIngest.p99 / res.idle.p99).toFixed(2)}` +
      `${res.cycleRatios ? ` (each busy window over the idle one before it: ${res.cycleRatios.map((r) => `x${r}`).join(" / ")})` : ""}` +
      `; ingest ${ingest}` +
      `${res.queriesRepeated ? "; some queries repeated" : ""}\nload avg ${loadAtStart} -> ${load1()}\n`,
  );
}

async function smallWrites(): Promise<void> {
  const res = await benchSmallIngest(dir, loadVocabulary(), await loadGloveEmbedder(), {
    seed: 42,
    rounds: Number(value("rounds") ?? 3),
    documentsPerRound: Number(value("documents") ?? 2000),
    maxSeconds: 30,
    ...env,
  });
  const line = (name: string, s: SmallIngest) =>
    `${name}: ${s.writers} writers, documents/s per round ${s.rounds.map((r) => r.docsPerSec).join(" / ")}` +
    ` (median ${s.docsPerSec.median}), per document p50 ${s.latency.p50} ms p99 ${s.latency.p99} ms` +
    `, ${s.cpuDocsPerSec} per CPU-s of the serving process`;
  process.stdout.write(
    `${database ? `${database.version}\n` : ""}${line("in-process", res.inProcess)}\n${line("HTTP", res.http)}\nload avg ${loadAtStart} -> ${load1()}\n`,
  );
}
