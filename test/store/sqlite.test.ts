// The SQLite adapter against the Store conformance suite, plus what only a real file and a second process can show.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tokenize } from "../../src/domain/text/tokenize.ts";
import type { Store } from "../../src/ports/store.ts";
import { openSqliteStore, type SqliteOptions } from "../../src/store/sqlite/index.ts";
import { migrations } from "../../src/store/sqlite/schema.ts";
import { openDatabase } from "../../src/store/sqlite/open.ts";
import { SqliteWriter } from "../../src/store/sqlite/writer.ts";
import { editionText, prepareDocument } from "../helpers/documents.ts";
import { verifyChain } from "../../src/domain/audit/event-hash.ts";
import { runStoreSuite } from "./conformance/index.ts";
import { runAuditLogSuite } from "./conformance/audit-log.ts";
import { runDocumentStoreSuite } from "./conformance/documents.ts";
import { runSearchFeedSuite } from "./conformance/search-feed.ts";
import { lexical, type StoreFactory } from "./conformance/support.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = new WeakMap<Store, string>();
let n = 0;

/** A store on a new file, or a second handle on the file of `sharedWith`. */
const storesWith =
  (opts: SqliteOptions): StoreFactory =>
  (sharedWith) => {
    const file = sharedWith ? fileOf.get(sharedWith)! : join(dir, `store-${n++}.db`);
    const store = openSqliteStore(file, opts);
    fileOf.set(store, file);
    return store;
  };

/** A file migrated up to just before token scopes and given one token there, then opened as today's store. */
async function legacyTokenStore(): Promise<Store> {
  const file = join(dir, `legacy-${n++}.db`);
  const db = openDatabase(
    file,
    migrations.slice(
      0,
      migrations.findIndex((m) => m.includes("ADD COLUMN scopes")),
    ),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_old', 'alpha', 1)").run();
  db.prepare(
    "INSERT INTO tokens (id, workspace_id, token_hash, actors, label, created_at, revoked_at) VALUES ('tok_old', 'ws_old', 'hash-old', '[]', NULL, 1, NULL)",
  ).run();
  db.close();
  return openSqliteStore(file);
}

runStoreSuite("sqlite", storesWith({}), legacyTokenStore);

// smriti serve's configuration: document replaces and audit records commit on a writer thread, every other call on the
// loop's connection.
const threaded = storesWith({ writerThread: true });
runDocumentStoreSuite("sqlite, replaces on a writer thread", threaded);
runSearchFeedSuite("sqlite, replaces on a writer thread", threaded);
runAuditLogSuite("sqlite, audit records on a writer thread", threaded);

describe("sqlite: a writer thread beside the loop's own writes", () => {
  it("audit appends from the thread and another connection interleave into one chain; every replace is read back at once", async () => {
    const store = await threaded();
    const other = await storesWith({})(store); // writes on its own connection
    try {
      const ws = (await store.workspaces.ensureWorkspace("default", 0)).id;
      const draft = (type: string, at: number) => ({
        type,
        actorId: null,
        tokenId: null,
        at,
        trajectoryId: null,
        payload: { at },
      });
      await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const { doc, chunks } = prepareDocument(
            `doc-${i}.md`,
            `# Doc ${i}\n\nThe heron count ${i} of the estuary.\n`,
          );
          await Promise.all([
            store.documents.replaceDocument(ws, doc, chunks, draft("memory.ingest", i)),
            store.audit.appendEvents(ws, [draft("memory.forget", i)]),
            other.audit.appendEvents(ws, [draft("memory.note", i)]),
          ]);
          expect((await store.documents.getDocument(ws, `doc-${i}.md`))?.documentHash).toBe(doc.documentHash);
        }),
      );
      const events = await store.audit.listEvents(ws, { afterSeq: 0, limit: 100 });
      expect(events.map((e) => e.type).sort()).toEqual([
        ...Array(12).fill("memory.forget"),
        ...Array(12).fill("memory.ingest"),
        ...Array(12).fill("memory.note"),
      ]);
      expect(verifyChain(events)).toBeNull();
      expect((await store.audit.eventHead(ws))?.hash).toBe(events.at(-1)!.hash);
      expect(await lexical(store, ws, tokenize("heron estuary"), 100)).toHaveLength(12);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it("closes after the writes asked for before it have committed, and refuses writes after it", async () => {
    const store = await threaded();
    const ws = (await store.workspaces.ensureWorkspace("default", 0)).id;
    const draft = { type: "memory.note", actorId: null, tokenId: null, at: 1, trajectoryId: null, payload: {} };
    let committed = false;
    const asked = store.audit.appendEvents(ws, [draft]).then(() => (committed = true));
    await store.close(); // in the same turn: the write's batch has not begun
    expect(committed).toBe(true);
    await asked;
    await expect(store.audit.appendEvents(ws, [draft])).rejects.toThrow("closed");
    const again = openSqliteStore(fileOf.get(store)!);
    try {
      expect((await again.audit.listEvents(ws, { afterSeq: 0, limit: 10 })).map((e) => e.type)).toEqual([
        "memory.note",
      ]);
    } finally {
      await again.close();
    }
  });

  it("audit records commit on the thread: it extends the chain the loop's connection began, and answers with the events", async () => {
    const file = join(dir, `writer-${n++}.db`);
    const store = openSqliteStore(file);
    const writer = new SqliteWriter({ file });
    try {
      const ws = (await store.workspaces.ensureWorkspace("default", 0)).id;
      const draft = (at: number) => ({
        type: "memory.forget",
        actorId: null,
        tokenId: null,
        at,
        trajectoryId: "traj_1",
        payload: { at },
      });
      await store.audit.appendEvents(ws, [draft(1)]);
      const stored = await writer.appendEvents(ws, [draft(2), draft(3)]);
      expect(writer.threads).toBe(1);
      expect(stored.map((e) => [e.seq, e.payload])).toEqual([
        [2, '{"at":2}'],
        [3, '{"at":3}'],
      ]);
      const events = await store.audit.listEvents(ws, { afterSeq: 0, limit: 10 });
      expect(events.slice(1)).toEqual(stored);
      expect(verifyChain(events)).toBeNull();
    } finally {
      await writer.close();
      await store.close();
    }
  });

  it("commits on a thread of its own that exits when idle; the next write starts another", async () => {
    const file = join(dir, `writer-${n++}.db`);
    const store = openSqliteStore(file);
    const writer = new SqliteWriter({ file }, 100);
    try {
      const ws = (await store.workspaces.ensureWorkspace("default", 0)).id;
      expect(writer.threads).toBe(0);
      const first = prepareDocument("first.md", "# First\n\nThe osprey returns in April.\n");
      await writer.replace({ workspaceId: ws, ...first });
      expect(writer.threads).toBe(1);
      expect(await store.documents.documentChunks(ws, "first.md")).toHaveLength(first.chunks.length);
      const until = Date.now() + 5_000;
      while (writer.threads > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(writer.threads).toBe(0);
      const second = prepareDocument("second.md", "# Second\n\nThe osprey leaves in September.\n");
      await writer.replace({ workspaceId: ws, ...second });
      expect(await lexical(store, ws, tokenize("osprey"), 10)).toHaveLength(2);
    } finally {
      await writer.close();
      await store.close();
    }
  });

  it("a replace refused on the thread rejects with SQLite's reason, stores none of it, and the next one commits", async () => {
    const store = await threaded();
    try {
      const ws = (await store.workspaces.ensureWorkspace("default", 0)).id;
      const bad = prepareDocument("bad.md", "# Bad\n\nA chunk without its text.\n");
      const audit = { type: "memory.ingest", actorId: null, tokenId: null, at: 1, trajectoryId: null, payload: {} };
      const chunks = bad.chunks.map((c) => ({ ...c, text: null as unknown as string }));
      await expect(store.documents.replaceDocument(ws, bad.doc, chunks, audit)).rejects.toThrow(
        /NOT NULL constraint failed: chunks.text/,
      );
      expect(await store.documents.getDocument(ws, "bad.md")).toBeUndefined();
      expect(await store.audit.listEvents(ws, { afterSeq: 0, limit: 10 })).toEqual([]);
      const good = prepareDocument("good.md", "# Good\n\nThe kestrel nests here.\n");
      await store.documents.replaceDocument(ws, good.doc, good.chunks, audit);
      expect(await store.documents.documentChunks(ws, "good.md")).toHaveLength(good.chunks.length);
    } finally {
      await store.close();
    }
  });
});

describe("sqlite: atomic replace seen from another process", () => {
  it("a reader never sees chunks of two versions of a document at once", async () => {
    const file = join(dir, "atomic.db");
    const reader = openSqliteStore(file);
    const ws = (await reader.workspaces.ensureWorkspace("default", 0)).id;
    const { doc, chunks } = prepareDocument("doc.md", editionText("aardvark-0"));
    await reader.documents.replaceDocument(ws, doc, chunks);

    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("../helpers/store-writer.ts", import.meta.url)), file, ws, "60"],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    let finished = false;
    void exited.then(() => (finished = true));

    const editions = new Set<string>();
    let reads = 0;
    let staleReads = 0;
    const terms = tokenize("lighthouse");
    try {
      while (!finished) {
        for (let i = 0; i < 20; i++) {
          const hits = await lexical(reader, ws, terms, 1000);
          // One version per call: the index holds exactly one replace's 40 chunks (consecutive row ids)...
          const ids = hits.map((h) => h.id).sort((a, b) => a - b);
          expect(ids, "index mixes or truncates versions").toHaveLength(40);
          expect(ids.at(-1)! - ids[0]!).toBe(39);
          // ...and a row read returns all of that version or, if a newer one committed in between, none of it.
          const texts = (await reader.documents.getChunks(ws, ids)).map((c) => c.text);
          expect([0, 40]).toContain(texts.length);
          const seen = new Set(texts.map((t) => /edition (\w+-\d+)/.exec(t)?.[1]));
          expect(seen.size, `mixed versions: ${[...seen].join(", ")}`).toBeLessThanOrEqual(1);
          for (const e of seen) if (e) editions.add(e);
          if (texts.length === 0) staleReads++;
          reads++;
        }
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      child.kill();
      await reader.close();
    }
    expect(await exited, stderr).toBe(0);
    expect(reads).toBeGreaterThan(20);
    // The reader really did observe the writer's progress, not just a frozen snapshot.
    expect(editions.size).toBeGreaterThan(2);
    // Known gap (reported): index search and row fetch are two snapshots, so a reader can briefly see neither version.
    expect(staleReads).toBeLessThan(reads);
  }, 60_000);
});

describe("sqlite: upgrading a database written by an earlier release", () => {
  it("brings a file at every earlier schema version up to date, keeping its workspaces and documents", async () => {
    for (let version = 1; version < migrations.length; version++) {
      const file = join(dir, `upgrade-${version}.db`);
      const old = new Database(file);
      for (const m of migrations.slice(0, version)) old.exec(m);
      old.pragma(`user_version = ${version}`);
      old.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_old', 'kept', 1)").run(); // the first release's table
      old.close();

      const store = openSqliteStore(file);
      try {
        expect((await store.workspaces.findWorkspace("kept"))?.id).toBe("ws_old");
        const { doc, chunks } = prepareDocument("after.md", "# After\n\nWritten after the upgrade.\n");
        await store.documents.replaceDocument("ws_old", doc, chunks);
        expect(await store.documents.documentChunks("ws_old", "after.md")).toHaveLength(chunks.length);
        await store.cognitive.putTrace("ws_old", "trace_after", 2, { ok: true }, 10); // the newest table is there
        expect(await store.cognitive.getTrace("ws_old", "trace_after")).toEqual({ ok: true });
      } finally {
        await store.close();
      }
      const reopened = new Database(file, { readonly: true });
      expect(reopened.pragma("user_version", { simple: true })).toBe(migrations.length);
      reopened.close();
    }
  });
});
