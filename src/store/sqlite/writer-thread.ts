// Runs on the SQLite writer thread (writer.ts): a batch of writes in one transaction on the thread's connection, each
// write in a savepoint of its own, so one that fails is rolled back alone and the others commit.
import { serveThread } from "../../threads/pool.ts";
import { checkpointElsewhere } from "./checkpointer.ts";
import { openFiles, sqliteRepos } from "./index.ts";
import type { Db } from "./open.ts";
import { decodeBatch, type WireBatch } from "./writer-wire.ts";
import type { BatchReply, WriteReply, WriterInit } from "./writer.ts";
import type { WriteRequest } from "./writer-wire.ts";

let writer: { db: Db; repos: ReturnType<typeof sqliteRepos> } | null = null;

serveThread<WireBatch, BatchReply>(async (batch, data) => {
  const writes = decodeBatch(batch);
  const { db, repos } = (writer ??= openWriter(data as WriterInit));
  const apply = (w: WriteRequest): WriteReply => {
    if (w.kind === "audit") return repos.audit.append(w.workspaceId, w.drafts);
    const { replaces } = repos.documents.recordReplaces(() =>
      repos.documents.replaceNow(w.workspaceId, w.doc, w.chunks, w.audit, w.vectors),
    );
    return { logged: replaces.flatMap((r) => r.logged) }; // the loop holds the rest of each change (committed-changes.ts)
  };
  const body = db
    .transaction(() =>
      writes.map((w) => {
        try {
          return { ok: db.transaction(apply)(w) }; // nested: a savepoint
        } catch (err) {
          return { error: (err as Error).message };
        }
      }),
    )
    .immediate();
  return { body };
});

function openWriter(init: WriterInit): { db: Db; repos: ReturnType<typeof sqliteRepos> } {
  const { db, log } = openFiles(init.file, { synchronous: init.synchronous ?? "normal" });
  // Each write of a batch runs in savepoints; their journal of the pages they change is kept in memory rather than
  // spilled to a temporary file past 64 KiB (which cost a one-chunk document a file write per page it changed).
  db.pragma("temp_store = MEMORY");
  checkpointElsewhere(db); // the serving process's checkpointer copies the WAL back, never a commit here
  return { db, repos: sqliteRepos(db, log, { notices: null, writer: null }) };
}
