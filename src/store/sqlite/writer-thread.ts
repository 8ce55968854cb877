// Runs on the SQLite writer thread (writer.ts): each write in one transaction on the thread's connection.
import { serveThread } from "../../threads/pool.ts";
import { checkpointElsewhere } from "./checkpointer.ts";
import { openFiles, SqliteStore } from "./index.ts";
import type { WriteReply, WriteRequest, WriterInit } from "./writer.ts";

let store: SqliteStore | null = null;

serveThread<WriteRequest, WriteReply>(async (req, data) => {
  store ??= openWriter(data as WriterInit);
  if (req.kind === "audit") return { body: await store.appendEvents(req.workspaceId, req.drafts) };
  await store.replaceDocument(req.workspaceId, req.doc, req.chunks, req.audit, req.vectors);
  return { body: null };
});

function openWriter(init: WriterInit): SqliteStore {
  const { db, log } = openFiles(init.file, { synchronous: init.synchronous ?? "normal" });
  checkpointElsewhere(db); // the serving process's checkpointer copies the WAL back, never a commit here
  return new SqliteStore(db, log, null, null, null);
}
