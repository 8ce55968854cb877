// `npm run bench:scifact [-- --seconds=5] [--rounds=3]`: the rows on real text. Loads SciFact's abstracts (the
// shared eval data, never copied here) with the default GloVe embedder, times every train claim in-process (server-side
// took_ms, hybrid and lexical: a first pass in the fresh process and a second after 2,000 other queries), drives recall
// over HTTP with autocannon from another process at 1, 16 and 64 connections, then `smriti serve --workers 1` and one
// per core, and measures memory (this process after a full GC; a fresh `smriti serve` on the vault). Every load rotates
// over the claims and the abstracts' titles (5,992 real queries). Prints tables; writes
// bench/results/scifact-<date>-<commit>.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadScifact } from "../eval/data/scifact.ts";
import { loadGloveEmbedder } from "../src/embed/glove.ts";
import { ensureBuilt } from "./lib/compiled.ts";
import { progress } from "./lib/log.ts";
import { commitInfo, load1, machineInfo } from "./lib/machine.ts";
import { memorySnapshot } from "./lib/memory.ts";
import { openRuntime, type BenchRuntime } from "./lib/runtime.ts";
import { startServer } from "./lib/server.ts";
import { summarize } from "./lib/stats.ts";
import { connectionsCell, otherCoresCell, processCoresCell, roundsCell, spreadCell } from "./report/load-cells.ts";
import { renderTable } from "./report/table.ts";
import { benchHttpLoad, type LoadTiming } from "./scenarios/http-load.ts";
import { benchServed } from "./scenarios/served.ts";
import { benchWorkersLoad } from "./scenarios/workers-load.ts";

// Re-run with --expose-gc so memory is measured after a full collection.
if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
  const res = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(res.status ?? 1);
}

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const timing: LoadTiming = { seconds: arg("seconds", 5), rounds: arg("rounds", 3) };
/** Other queries between the two in-process passes: more than the query-vector cache holds (1,000). */
const BETWEEN_PASSES = 2_000;
const WARMUP = 50;

const root = fileURLToPath(new URL("..", import.meta.url));
const loadAtStart = load1();
const commit = commitInfo(root);
if (ensureBuilt()) progress("built dist/ (the compiled server the workers scenario runs)");
const set = loadScifact();
const claims = set.queries.map((q) => q.text);
// An abstract's title is a real query too (a reader looking for a paper); with the claims, the loads' rotation.
const titles = [...new Set(set.vaults[0]!.docs.map((d) => d.content.slice(0, d.content.indexOf("\n\n")).trim()))];
const queries = [...claims, ...titles];
const dir = mkdtempSync(join(tmpdir(), "smriti-scifact-"));

type Mode = "hybrid" | "lexical";
const recall = (rt: BenchRuntime, query: string, mode: Mode) =>
  rt.runtime.memory.recall(rt.workspaceId, { query, k: 10, mode });
const tookMs = async (rt: BenchRuntime, mode: Mode) => {
  const took: number[] = [];
  for (const q of claims) took.push((await recall(rt, q, mode)).took_ms);
  return summarize(took);
};

try {
  progress("loading GloVe and ingesting SciFact's abstracts");
  const rt = await openRuntime(dir, await loadGloveEmbedder());
  let chunks = 0;
  for (const doc of set.vaults[0]!.docs)
    chunks += (await rt.runtime.ingest.ingest(rt.workspaceId, { source_path: doc.sourcePath, content: doc.content }))
      .chunks;
  const afterIngest = memorySnapshot();
  progress(`took_ms of ${claims.length} train claims in-process: first pass (after ${WARMUP} titles)`);
  for (const t of titles.slice(0, WARMUP)) await recall(rt, t, "hybrid");
  const first = { hybrid: await tookMs(rt, "hybrid"), lexical: await tookMs(rt, "lexical") };
  progress(`second pass, after ${BETWEEN_PASSES} titles (the claims' query vectors evicted)`);
  for (const t of titles.slice(WARMUP, WARMUP + BETWEEN_PASSES)) await recall(rt, t, "hybrid");
  const second = { hybrid: await tookMs(rt, "hybrid"), lexical: await tookMs(rt, "lexical") };
  progress(`recall over HTTP under autocannon, ${timing.rounds} rounds of ${timing.seconds} s a step`);
  const srv = await startServer(rt.runtime);
  const load = await benchHttpLoad(srv, queries, timing, second.hybrid.mean);
  await srv.server.close();
  const benchProcess = memorySnapshot();
  await rt.runtime.close();
  const groups = [...new Set([1, availableParallelism()])];
  progress(`smriti serve --workers ${groups.join(" and ")} (compiled, fresh groups) under autocannon`);
  const workers = await benchWorkersLoad(dir, queries, timing, groups);
  progress("smriti serve (compiled, a fresh process): memory after 50 recalls and 25 s idle");
  const served = await benchServed(dir, titles.slice(-60), true);

  const results = {
    date: new Date().toISOString().slice(0, 10),
    commit,
    machine: machineInfo(null, loadAtStart),
    documents: set.vaults[0]!.docs.length,
    chunks,
    claims: claims.length,
    loadQueries: queries.length,
    timing,
    tookMs: { ...first, second },
    load,
    workers,
    memory: { afterIngest, benchProcess, served },
  };
  const took = (label: string, s: typeof first.hybrid) => [label, s.p50, s.p90, s.p99, s.mean];
  process.stdout.write(
    `\nSciFact: ${results.documents} abstracts, ${chunks} chunks, ${claims.length} train claims; loads rotate over ` +
      `${queries.length} queries (claims and titles)\n` +
      renderTable(
        ["server-side took_ms of the claims (in-process)", "p50", "p90", "p99", "mean"],
        [
          took("hybrid, first pass (fresh process)", first.hybrid),
          took("lexical, first pass", first.lexical),
          took(`hybrid, second pass (after ${BETWEEN_PASSES} titles)`, second.hybrid),
          took("lexical, second pass", second.lexical),
        ],
      ) +
      "\n\n" +
      renderTable(
        [
          "recall over HTTP, autocannon",
          "req/s",
          "rounds req/s",
          "spread",
          "other processes' cores",
          "p50 ms",
          "p99 ms",
          "errors",
          "CPU ms/req",
        ],
        [
          ...load.steps.map((s) => [`in-process server, ${s.connections} connection(s)`, s]),
          ...workers.flatMap((g) => g.steps.map((s) => [`smriti serve --workers ${g.workers}, ${s.connections}`, s])),
        ].map(([label, s]) => {
          const x = s as (typeof load.steps)[number];
          return [
            label as string,
            x.requestsPerSec,
            roundsCell(x),
            spreadCell(x),
            otherCoresCell(x),
            x.p50,
            x.p99,
            x.errors + x.non2xx,
            x.serverCpuMsPerRequest,
          ];
        }),
      ) +
      "\n" +
      workers
        .flatMap((g) =>
          g.steps.map(
            (s) =>
              `--workers ${g.workers}, ${s.connections} connections, per round: cores per worker ${processCoresCell(s, g.workers > 1 ? 1 : 0)}, connections per worker ${connectionsCell(s, g.workers > 1 ? 1 : 0)}`,
          ),
        )
        .join("\n") +
      `\nHTTP mean at 1 connection / in-process took_ms mean = x${load.overheadRatio ?? "?"}\n\n` +
      renderTable(
        ["memory", "RSS MB", "JS heap used MB", "array buffers MB"],
        [
          [
            "this process after ingest (GloVe, indexes; full GC)",
            afterIngest.rssMB,
            afterIngest.heapUsedMB,
            afterIngest.arrayBuffersMB,
          ],
          [
            "this process after the recalls and HTTP loads",
            benchProcess.rssMB,
            benchProcess.heapUsedMB,
            benchProcess.arrayBuffersMB,
          ],
          [
            `smriti serve: after 50 recalls (peak ${served.peakRssMB}) / after 25 s idle`,
            `${served.rssMB} / ${served.settledRssMB}`,
            "-",
            "-",
          ],
          ...workers.map((g) => [`smriti serve --workers ${g.workers}: the group after its loads`, g.rssMB, "-", "-"]),
        ],
      ) +
      "\n",
  );
  const file = fileURLToPath(new URL(`./results/scifact-${results.date}-${commit.short}.json`, import.meta.url));
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  progress(`wrote ${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
