// `npm run bench:compare -- --against <checkout> [--chunks=100000] [--rounds=20] [--per-round=100]`: in-process recall of this
// checkout and another (an earlier commit, with its own node_modules) on the same store, interleaved round by round in one
// process, so machine drift falls on both alike. Prints p50/p99/mean per mode and writes bench/results/compare-*.json.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateDocuments } from "./corpus/documents.ts";
import { generateQueries } from "./corpus/queries.ts";
import { loadVocabulary } from "./corpus/vocab.ts";
import { fillUnmeasured } from "./lib/fill.ts";
import { progress } from "./lib/log.ts";
import { commitInfo } from "./lib/machine.ts";
import { round, summarize } from "./lib/stats.ts";

type Mode = "lexical" | "hybrid";
/** One checkout's runtime on the shared store, reduced to what is compared. */
interface Checkout {
  label: string;
  recall(query: string, mode: Mode): Promise<unknown>;
  close(): Promise<void>;
}

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const againstAt = process.argv.indexOf("--against");
const against = againstAt > 0 ? process.argv[againstAt + 1] : undefined;
if (!against)
  throw new Error("usage: bench/compare.ts --against <other checkout> [--chunks=N] [--rounds=N] [--per-round=N]");
const chunks = Number(arg("chunks", "100000"));
const rounds = Number(arg("rounds", "20"));
const perRound = Number(arg("per-round", "100"));
const modes: Mode[] = ["lexical", "hybrid"];

async function open(root: string, dataDir: string): Promise<Checkout> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href) as Promise<Record<string, unknown>>;
  const { createRuntime } = (await load("src/main.ts")) as {
    createRuntime: (
      c: unknown,
      o: unknown,
    ) => Promise<{
      store: { findWorkspace?(n: string): unknown; workspaces?: { findWorkspace(n: string): unknown } };
      memory: { recall(ws: string, r: unknown): Promise<unknown> };
      close(): Promise<void>;
    }>;
  };
  const { loadConfig } = (await load("src/config.ts")) as { loadConfig: (env: object, o: object) => unknown };
  const { loadGloveEmbedder } = (await load("src/embed/glove.ts")) as { loadGloveEmbedder: () => Promise<unknown> };
  const runtime = await createRuntime(loadConfig({}, { data: dataDir }), {
    embedder: await loadGloveEmbedder(),
    log: () => {},
    background: true,
  });
  // Earlier commits answer synchronously, later ones with a Promise: await covers both. Since the store refactor the
  // lookup lives on store.workspaces.
  const store = runtime.store;
  const ws = (await (store.workspaces
    ? store.workspaces.findWorkspace("default")
    : store.findWorkspace!("default"))) as {
    id: string;
  };
  return {
    label: root,
    recall: (query, mode) => runtime.memory.recall(ws.id, { query, k: 10, mode }),
    close: () => runtime.close(),
  };
}

const here = resolve(new URL("..", import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), "smriti-compare-"));
try {
  const vocab = loadVocabulary();
  const { loadGloveEmbedder } = await import("../src/embed/glove.ts");
  progress(`filling ${chunks} chunks (lexical ingest, then GloVe vectors in bulk)`);
  await fillUnmeasured(dir, await loadGloveEmbedder(), generateDocuments(vocab, { seed: 42, chunks }));
  const sides = [await open(here, dir), await open(resolve(against), dir)];
  const queries = generateQueries(vocab, rounds * perRound + 100, 7);
  progress("warm-up: loads every index on both sides");
  for (const side of sides) for (const mode of modes) for (const q of queries.slice(0, 50)) await side.recall(q, mode);
  const samples = sides.map(() => Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<Mode, number[]>);
  const cpu = sides.map(() => Object.fromEntries(modes.map((m) => [m, 0])) as Record<Mode, number>);
  for (let r = 0; r < rounds; r++) {
    const batch = queries.slice(100 + r * perRound, 100 + (r + 1) * perRound);
    // ABBA order: neither side always runs first in a round.
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0])
      for (const mode of modes) {
        const before = process.cpuUsage();
        for (const q of batch) {
          const t = performance.now();
          await sides[i]!.recall(q, mode);
          samples[i]![mode].push(performance.now() - t);
        }
        const used = process.cpuUsage(before);
        cpu[i]![mode] += (used.user + used.system) / 1000;
      }
    progress(`round ${r + 1}/${rounds}`);
  }
  const rows = sides.flatMap((side, i) =>
    modes.map((mode) => ({
      side: side.label,
      mode,
      ...summarize(samples[i]![mode]),
      cpuMsPerOp: round(cpu[i]![mode] / samples[i]![mode].length),
    })),
  );
  for (const row of rows)
    process.stdout.write(
      `${row.mode.padEnd(8)} ${row.side.padEnd(40)} p50 ${row.p50.toFixed(2)}  p99 ${row.p99.toFixed(2)}  mean ${row.mean.toFixed(2)}  cpu ${row.cpuMsPerOp.toFixed(2)} ms/op\n`,
    );
  for (const mode of modes) {
    const [a, b] = [
      rows.find((r) => r.mode === mode && r.side === here)!,
      rows.find((r) => r.mode === mode && r.side !== here)!,
    ];
    process.stdout.write(
      `${mode}: this/other p50 ${(a.p50 / b.p50).toFixed(3)}, p99 ${(a.p99 / b.p99).toFixed(3)}, cpu ${(a.cpuMsPerOp / b.cpuMsPerOp).toFixed(3)}\n`,
    );
  }
  const out = join(
    here,
    "bench",
    "results",
    `compare-${new Date().toISOString().slice(0, 10)}-${commitInfo(here).short}.json`,
  );
  writeFileSync(
    out,
    `${JSON.stringify({ chunks, rounds, perRound, this: commitInfo(here), other: commitInfo(resolve(against)), rows }, null, 2)}\n`,
  );
  progress(`wrote ${out}`);
  for (const side of sides) await side.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
