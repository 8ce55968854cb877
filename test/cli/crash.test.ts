// Crash safety: SIGKILL a process mid-ingest, reopen, and check every acknowledged write survived whole and nothing half-written did.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { RecallRequest } from "../../src/contract/memory.ts";
import { chunkDocument } from "../../src/domain/text/chunk.ts";
import { contentHash } from "../../src/domain/text/hash.ts";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import { createRuntime, type FullRuntime } from "../../src/main.ts";
import { DEFAULT_WORKSPACE } from "../../src/services/auth.ts";
import { ROOT } from "./cli-helpers.ts";
import { uniqueTerm } from "./fixtures/crash-docs.ts";
import { ALL_SCOPES } from "../../src/contract/scopes.ts";

const FIXTURE = join(ROOT, "test/cli/fixtures/ingest-loop.ts");
const root = mkdtempSync(join(tmpdir(), "smriti-crash-"));
const config = loadConfig({ ...process.env, SMRITI_EMBEDDER: "none" }, { data: join(root, "data") });
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Written {
  path: string;
  hash: string;
  term: string;
}

interface ChildRun {
  acked: Written[];
  /** The ingest that had begun but not been acknowledged when the child died: it may or may not have committed. */
  pending: Written | null;
}

interface KillPlan {
  /** Kill once this many ingests were acknowledged... */
  afterAcks: number;
  /** ...at the next "ACK" (between ingests) or "TX" (start of the write transaction) line... */
  on: "ACK" | "TX";
  /** ...plus this delay. */
  delayMs: number;
}

/** Runs the ingest loop with `seed` and kills it with SIGKILL as planned. */
function runAndKill(seed: number, plan: KillPlan): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, config.dataDir, String(seed)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run: ChildRun = { acked: [], pending: null };
    let buffer = "";
    let stderr = "";
    let index = 0;
    let killing = false;
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const [word, path, hash] = buffer.slice(0, nl).split(" ");
        buffer = buffer.slice(nl + 1);
        if (word === "BEGIN") run.pending = { path: path!, hash: hash!, term: uniqueTerm(seed, index++) };
        else if (word === "ACK") {
          if (!run.pending || run.pending.path !== path || run.pending.hash !== hash || !path || !hash) {
            child.kill("SIGKILL");
            return reject(new Error(`ACK ${path} ${hash} does not match BEGIN ${JSON.stringify(run.pending)}`));
          }
          run.acked.push({ path, hash, term: run.pending.term });
          run.pending = null;
        }
        if (word === plan.on && run.acked.length >= plan.afterAcks && !killing) {
          killing = true;
          setTimeout(() => child.kill("SIGKILL"), plan.delayMs);
        }
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (signal === "SIGKILL") resolve(run);
      else reject(new Error(`ingest loop exited ${code} without being killed:\n${stderr}`));
    });
  });
}

const open = () => createRuntime(config, { embedder: null, log: () => {} });

/** Every stored document: its hash matches its content, and its chunks are exactly the chunking of that content. */
async function checkTiling(rt: FullRuntime, wsId: string, db: Database.Database): Promise<string[]> {
  const paths = db
    .prepare("SELECT source_path FROM documents WHERE workspace_id = ? ORDER BY source_path")
    .pluck()
    .all(wsId) as string[];
  for (const path of paths) {
    const doc = (await rt.store.documents.getDocument(wsId, path))!;
    expect(contentHash(doc.content), path).toBe(doc.documentHash);
    const stored = (await rt.store.documents.documentChunks(wsId, path)).map((c) => [
      c.chunkHash,
      c.anchor,
      c.start,
      c.end,
    ]);
    const expected = chunkDocument(doc.content, doc.kind).map((c) => [c.hash, c.anchor, c.start, c.end]);
    expect(stored, path).toEqual(expected);
  }
  const orphans = db
    .prepare(
      "SELECT DISTINCT source_path FROM chunks k WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.workspace_id = k.workspace_id AND d.source_path = k.source_path)",
    )
    .pluck()
    .all();
  expect(orphans).toEqual([]);
  return paths;
}

/** The log-replaying watcher scores every live chunk as an index freshly loaded from the table does, and removed chunks not at all. */
async function expectSameScores(
  watcher: FullRuntime,
  fresh: FullRuntime,
  wsId: string,
  db: Database.Database,
): Promise<void> {
  const live = db.prepare("SELECT COUNT(*) FROM chunks WHERE workspace_id = ?").pluck().get(wsId) as number;
  const gone = new Set(
    db.prepare("SELECT DISTINCT chunk_id FROM changes WHERE workspace_id = ? AND op = 0").pluck().all(wsId) as number[],
  );
  for (const query of ["replica", "quorum lattice", "crash document"]) {
    const search = (rt: FullRuntime) =>
      rt.search.search({
        workspaceId: wsId,
        terms: tokenize(query),
        lexicalK: live + 1,
        dense: null,
        expansion: null,
        filter: {},
      });
    const [mine, expected] = [await search(watcher), await search(fresh)];
    expect(mine.maxBm25, query).toBeCloseTo(expected.maxBm25, 9);
    expectSameHits(
      mine.hits.map((h) => ({ id: h.id, score: h.bm25 })),
      expected.hits.map((h) => ({ id: h.id, score: h.bm25 })),
      query,
    );
    expect(
      mine.hits.filter((h) => gone.has(h.id)),
      `${query} removed`,
    ).toEqual([]);
  }
}

const lexical = async (rt: FullRuntime, wsId: string, term: string) =>
  (
    await rt.search.search({
      workspaceId: wsId,
      terms: tokenize(term),
      lexicalK: 50,
      dense: null,
      expansion: null,
      filter: {},
    })
  ).hits.map((h) => ({ id: h.id, score: h.bm25 }));

/** Same chunk ids in the same order, same scores up to float summation order. */
function expectSameHits(a: { id: number; score: number }[], b: { id: number; score: number }[], label: string): void {
  expect(
    a.map((h) => h.id),
    label,
  ).toEqual(b.map((h) => h.id));
  a.forEach((h, i) => expect(h.score, label).toBeCloseTo(b[i]!.score, 9));
}

describe("crash safety of ingest", () => {
  it("keeps every acknowledged document whole across SIGKILLs at different moments", { timeout: 180_000 }, async () => {
    const written: Written[] = [];
    let watcher: FullRuntime | null = null; // a long-lived reader whose index follows the other processes' writes through the changes log
    const kills: KillPlan[] = [
      { afterAcks: 1, on: "ACK", delayMs: 0 },
      { afterAcks: 2, on: "TX", delayMs: 0 },
      { afterAcks: 2, on: "TX", delayMs: 25 },
      { afterAcks: 3, on: "ACK", delayMs: 90 },
    ];
    try {
      for (const [seed, kill] of kills.entries()) {
        const run = await runAndKill(seed + 1, kill);
        written.push(...run.acked, ...(run.pending ? [run.pending] : []));

        const rt = await open();
        const db = new Database(config.dbFile, { readonly: true });
        try {
          expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
          const wsId = (await rt.store.workspaces.findWorkspace(DEFAULT_WORKSPACE))!.id;
          const paths = await checkTiling(rt, wsId, db);

          // The last acknowledged version of each path is stored, unless the in-flight ingest to that path committed.
          const lastAck = new Map(run.acked.map((w) => [w.path, w]));
          for (const [path, ack] of lastAck) {
            const stored = (await rt.store.documents.getDocument(wsId, path))!;
            const allowed = [ack.hash, ...(run.pending?.path === path ? [run.pending.hash] : [])];
            expect(allowed, path).toContain(stored.documentHash);
            const res = await rt.handlers.recall(
              {
                workspaceId: wsId,
                workspaceName: DEFAULT_WORKSPACE,
                tokenId: "test",
                actorId: null,
                scopes: ALL_SCOPES,
              },
              RecallRequest.parse({
                query: stored.documentHash === ack.hash ? ack.term : run.pending!.term,
                mode: "lexical",
              }),
            );
            expect(res.hits[0]?.source_path, path).toBe(path);
          }

          // Indexes agree with the chunks table: the current version's unique term finds exactly its path; superseded ones find nothing.
          const current = new Map<string, string>();
          for (const p of paths) current.set((await rt.store.documents.getDocument(wsId, p))!.documentHash, p);
          for (const w of written) {
            const hits = await lexical(rt, wsId, w.term);
            const ids = await rt.store.documents.getChunks(
              wsId,
              hits.map((h) => h.id),
            );
            expect(ids.length, w.term).toBe(hits.length);
            expect([...new Set(ids.map((c) => c.sourcePath))], w.term).toEqual(
              current.get(w.hash) === w.path ? [w.path] : [],
            );
            if (watcher) expectSameHits(await lexical(watcher, wsId, w.term), hits, `watcher ${w.term}`);
          }
          if (watcher) await expectSameScores(watcher, rt, wsId, db);
          expect(lastAck.size).toBeGreaterThan(0);
        } finally {
          db.close();
          await rt.close();
        }
        if (!watcher) {
          watcher = await open();
          await lexical(watcher, (await watcher.store.workspaces.findWorkspace(DEFAULT_WORKSPACE))!.id, "replica"); // loads the index now; later writes arrive via the log
        }
      }
    } finally {
      await watcher?.close();
    }
  });
});
