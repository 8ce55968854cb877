// `npm run bench [-- --quick] [--sizes=10000,100000] [--queries=N] [--no-contention] [--keep-data]`
// Ingest throughput, recall/pack latency (in-process and HTTP), cold start, memory and recall under ingest,
// on a synthetic Zipf corpus; prints target vs measured and writes bench/results/*.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { generateDocuments } from "./corpus/documents.ts";
import { loadVocabulary } from "./corpus/vocab.ts";
import { ensureBuilt } from "./lib/compiled.ts";
import { progress } from "./lib/log.ts";
import { commitInfo, load1, machineInfo } from "./lib/machine.ts";
import { parseOptions } from "./lib/options.ts";
import { printResults } from "./report/print.ts";
import { checkTargets, cliTargets, smallIngestTargets } from "./report/targets.ts";
import type { BenchResults, SizeResults } from "./report/types.ts";
import { writeResults } from "./report/write.ts";
import { benchSmallIngest, SMALL_WRITERS } from "./scenarios/small-ingest.ts";
import { benchSize } from "./size.ts";
import { loadGloveEmbedder } from "../src/embed/glove.ts";

const VOCABULARY = 20_000;

// Re-run with --expose-gc so memory is measured after a full collection.
if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
  const res = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(res.status ?? 1);
}

const opts = parseOptions(process.argv.slice(2));
const started = performance.now();
const loadAtStart = load1();
const commit = commitInfo(fileURLToPath(new URL("..", import.meta.url))); // at start: the tree may change while the bench runs
// Built first, not beside a measurement: the CLI and `smriti serve` are timed as `npm ci` leaves them.
if (ensureBuilt()) progress("built dist/ (the compiled CLI and server the bench times in fresh processes)");
const vocab = loadVocabulary(VOCABULARY);
progress("loading the GloVe embedder (builds its cache on first use)");
const glove = await loadGloveEmbedder();
const scratch = mkdtempSync(join(tmpdir(), "smriti-bench-"));
const sizes: SizeResults[] = [];
let smallIngest: BenchResults["smallIngest"];
try {
  for (const size of opts.sizes) {
    const docs = generateDocuments(vocab, { seed: opts.seed, chunks: size });
    sizes.push(await benchSize(join(scratch, String(size)), docs, vocab, glove, opts));
    if (!opts.keepData) rmSync(join(scratch, String(size)), { recursive: true, force: true });
  }
  progress(`small writes: one-chunk documents, ${SMALL_WRITERS} writers in-process and over HTTP`);
  smallIngest = await benchSmallIngest(join(scratch, "small"), vocab, glove, {
    seed: opts.seed + 13,
    rounds: 3,
    documentsPerRound: opts.quick ? 2_000 : 5_000,
    maxSeconds: 30,
  });
} finally {
  if (!opts.keepData) rmSync(scratch, { recursive: true, force: true });
  else progress(`data kept in ${scratch}`);
}

const sqlite = (new Database(":memory:").prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
const results: BenchResults = {
  date: new Date().toISOString().slice(0, 10),
  commit,
  machine: machineInfo(sqlite, loadAtStart),
  options: {
    quick: opts.quick,
    sizes: opts.sizes,
    queries: opts.queries,
    seed: opts.seed,
    vocabulary: VOCABULARY,
    zipfExponent: 1,
    ingestBudgetSeconds: opts.ingestBudgetSeconds,
  },
  sizes,
  smallIngest,
  targets: [...checkTargets(sizes[sizes.length - 1]!), ...cliTargets(sizes), ...smallIngestTargets(smallIngest)],
  durationSeconds: Math.round((performance.now() - started) / 1000),
};
process.stdout.write(`${printResults(results)}\n`);
for (const f of writeResults(results)) progress(`wrote ${f}`);
