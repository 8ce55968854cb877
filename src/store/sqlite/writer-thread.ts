// Runs on the SQLite writer thread (writer.ts): each document replace in one transaction on the thread's connection.
import { serveThread } from "../../threads/pool.ts";
import { checkpointElsewhere } from "./checkpointer.ts";
import { SqliteStore } from "./index.ts";
import { openDatabase } from "./open.ts";
import type { DocumentReplace, WriterInit } from "./writer.ts";

let store: SqliteStore | null = null;

serveThread<DocumentReplace, null>(async (req, data) => {
  store ??= openWriter(data as WriterInit);
  await store.replaceDocument(req.workspaceId, req.doc, req.chunks, req.audit, req.vectors);
  return { body: null };
});

function openWriter(init: WriterInit): SqliteStore {
  const db = openDatabase(init.file, { synchronous: init.synchronous ?? "normal" });
  checkpointElsewhere(db); // the serving process's checkpointer copies the WAL back, never a commit here
  return new SqliteStore(db, null, null, null);
}
