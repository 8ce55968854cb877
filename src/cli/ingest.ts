// `smriti ingest <paths...>`: walks files and directories and ingests the text files that changed, straight into the data dir.
import type { Command } from "commander";
import cliProgress from "cli-progress";
import { readFile, stat } from "node:fs/promises";
import { AppError } from "../contract/errors.ts";
import { limits } from "../contract/limits.ts";
import { IngestRequest } from "../contract/memory.ts";
import { inferKind } from "../domain/text/chunk.ts";
import { contentHash } from "../domain/text/hash.ts";
import type { FullRuntime } from "../main.ts";
import type { CallContext } from "../ports/call-context.ts";
import { addDataOption, configFrom, printJson, withRuntime, workspaceCall, type DataOptions } from "./shared.ts";
import { mapLimited } from "./map-limited.ts";
import { walk, type WalkedFile, type WalkOptions } from "./walk.ts";
import { ANALYSIS_VERSION } from "../services/memory/analyse.ts";

/** Files over this many bytes are skipped: limits.maxContentChars (4 MB), so any file under the cap fits the API's content limit. */
export const MAX_FILE_BYTES = limits.maxContentChars;
/** A NUL byte among the first this-many bytes marks a file as binary (git's heuristic). */
export const BINARY_SNIFF_BYTES = 8192;

type Outcome =
  | { status: "ingested"; documentHash: string; chunks: number; added: number; removed: number }
  | { status: "unchanged" }
  | { status: "skipped"; reason: string }
  | { status: "failed"; error: string };

export interface IngestSummary {
  counts: { files: number; ingested: number; unchanged: number; skipped: number; failed: number };
  chunks: { added: number; removed: number };
  /** Wall time of the command since its process started (issue 41: start-up and the word-vector load included). */
  elapsed_ms: number;
  /** Of elapsed_ms, the part before the first file was read: loading the code, opening the store, the word vectors. */
  startup_ms: number;
  ingested: { source_path: string; document_hash: string; chunks: number; added: number; removed: number }[];
  skipped: { source_path: string; reason: string }[];
  failed: { source_path: string; error: string }[];
}

export function registerIngest(program: Command): void {
  addDataOption(program.command("ingest"))
    .description(
      `ingest files and directories (honours .gitignore and .smritiignore; skips .git, node_modules, dot-files, binary files and files over ${MAX_FILE_BYTES} bytes; unchanged files are not re-indexed)`,
    )
    .argument(
      "<paths...>",
      "files or directories; source_path is each file's path relative to the current directory, or to the input itself when it lies outside it",
    )
    .option("--workspace <name>", "workspace", "default")
    .option("--hidden", "also walk into dot-files and dot-directories (a path named explicitly is always walked)")
    .option("--json", "print a JSON summary")
    .action(async (paths: string[], opts: DataOptions & { workspace: string; hidden?: boolean; json?: boolean }) => {
      const config = configFrom(opts);
      let startup = 0;
      const summary = await withRuntime(
        opts,
        async (rt) => {
          startup = performance.now(); // performance.now() counts from the process's start
          return ingestPaths(rt, await workspaceCall(rt, opts.workspace), paths, { hidden: opts.hidden === true });
        },
        {},
        true,
      );
      [summary.startup_ms, summary.elapsed_ms] = [Math.round(startup), Math.round(performance.now())];
      if (opts.json) printJson(summary);
      else printSummary(summary, config.dataDir);
      if (summary.counts.failed > 0) process.exitCode = 1;
    });
}

/** Files read and analysed at once: the ingest workers chunk and embed some while the loop writes others. */
const IN_FLIGHT = 4;

/** Walks the inputs and ingests files a few at a time; one file's failure never stops the others. */
export async function ingestPaths(
  rt: FullRuntime,
  call: CallContext,
  paths: readonly string[],
  opts: WalkOptions = {},
): Promise<IngestSummary> {
  const walked = await walk(paths, opts);
  const summary: IngestSummary = {
    counts: { files: walked.files.length, ingested: 0, unchanged: 0, skipped: 0, failed: 0 },
    chunks: { added: 0, removed: 0 },
    elapsed_ms: 0,
    startup_ms: 0,
    ingested: [],
    skipped: walked.ignored.map((p) => ({ source_path: p, reason: "ignored" })),
    failed: walked.errors.map((e) => ({ source_path: e.sourcePath, error: e.error })),
  };
  const bar = process.stderr.isTTY && walked.files.length > 0 ? startBar(walked.files.length) : null;
  try {
    const outcomes = await mapLimited(walked.files, IN_FLIGHT, async (file) => {
      bar?.increment(0, { file: shorten(file.sourcePath) });
      const outcome = await ingestFile(rt, call, file);
      bar?.increment(1, { file: shorten(file.sourcePath) });
      return outcome;
    });
    for (const [i, outcome] of outcomes.entries()) {
      const file = walked.files[i]!;
      if (outcome.status === "ingested") {
        summary.ingested.push({
          source_path: file.sourcePath,
          document_hash: outcome.documentHash,
          chunks: outcome.chunks,
          added: outcome.added,
          removed: outcome.removed,
        });
        summary.chunks.added += outcome.added;
        summary.chunks.removed += outcome.removed;
      } else if (outcome.status === "unchanged") summary.counts.unchanged++;
      else if (outcome.status === "skipped")
        summary.skipped.push({ source_path: file.sourcePath, reason: outcome.reason });
      else summary.failed.push({ source_path: file.sourcePath, error: outcome.error });
    }
  } finally {
    bar?.stop();
  }
  summary.counts.ingested = summary.ingested.length;
  summary.counts.skipped = summary.skipped.length;
  summary.counts.failed = summary.failed.length;
  return summary;
}

async function ingestFile(rt: FullRuntime, call: CallContext, file: WalkedFile): Promise<Outcome> {
  try {
    const info = await stat(file.path);
    if (info.size > MAX_FILE_BYTES)
      return { status: "skipped", reason: `too large (${info.size} bytes > ${MAX_FILE_BYTES})` };
    const bytes = await readFile(file.path);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { status: "skipped", reason: "binary" };
    const content = bytes.toString("utf8");
    if (content.trim() === "") return { status: "skipped", reason: "empty" };
    // Cheap pre-check: hashing is far cheaper than chunking, tokenizing and embedding an unchanged file.
    const stored = await rt.store.documents.getDocument(call.workspaceId, file.sourcePath);
    if (
      stored &&
      stored.documentHash === contentHash(content) &&
      stored.kind === inferKind(file.sourcePath) &&
      stored.analysis === ANALYSIS_VERSION
    )
      return { status: "unchanged" };
    const res = await rt.handlers.ingest(call, IngestRequest.parse({ content, source_path: file.sourcePath }));
    if (res.unchanged) return { status: "unchanged" };
    return {
      status: "ingested",
      documentHash: res.document_hash,
      chunks: res.chunks,
      added: res.added.length,
      removed: res.removed.length,
    };
  } catch (err) {
    if (err instanceof AppError && err.code === "binary_content") return { status: "skipped", reason: "binary" };
    if (err instanceof AppError) return { status: "failed", error: `${err.code}: ${err.message}` };
    return { status: "failed", error: err instanceof Error ? err.message : String(err) };
  }
}

function startBar(total: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "ingest [{bar}] {value}/{total} {file}",
      hideCursor: true,
      clearOnComplete: true,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { file: "" });
  return bar;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const shorten = (path: string) => (path.length > 48 ? `…${path.slice(-47)}` : path);

function printSummary(s: IngestSummary, dataDir: string): void {
  for (const f of s.failed) process.stderr.write(`failed: ${f.source_path}: ${f.error}\n`);
  const reasons = new Map<string, number>();
  for (const k of s.skipped) {
    const reason = k.reason.startsWith("too large") ? "too large" : k.reason;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const why = reasons.size ? ` (${[...reasons].map(([r, n]) => `${r} ${n}`).join(", ")})` : "";
  process.stdout.write(
    `${s.counts.ingested} ingested, ${s.counts.unchanged} unchanged, ${s.counts.skipped} skipped${why}, ${s.counts.failed} failed` +
      `; chunks +${s.chunks.added} -${s.chunks.removed}; ${seconds(s.elapsed_ms)} (start-up ${seconds(s.startup_ms)}); data ${dataDir}\n`,
  );
}
