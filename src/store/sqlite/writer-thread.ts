// Runs on the SQLite writer thread (writer.ts): each write in one transaction on the thread's connection.
import type { Store } from "../../ports/store.ts";
import { serveThread } from "../../threads/pool.ts";
import { checkpointElsewhere } from "./checkpointer.ts";
import { openFiles, sqliteRepos } from "./index.ts";
import type { WriteReply, WriteRequest, WriterInit } from "./writer.ts";

let store: Omit<Store, "close"> | null = null;

serveThread<WriteRequest, WriteReply>(async (req, data) => {
  store ??= openWriter(data as WriterInit);
  if (req.kind === "audit") return { body: await store.audit.appendEvents(req.workspaceId, req.drafts) };
  await store.documents.replaceDocument(req.workspaceId, req.doc, req.chunks, req.audit, req.vectors);
  return { body: null };
});

function openWriter(init: WriterInit): Omit<Store, "close"> {
  const { db, log } = openFiles(init.file, { synchronous: init.synchronous ?? "normal" });
  checkpointElsewhere(db); // the serving process's checkpointer copies the WAL back, never a commit here
  return sqliteRepos(db, log, { notices: null, writer: null });
}
