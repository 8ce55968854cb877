// What a rejected request must not change: the rows requests write (documents, chunks, audit events, records, tokens,
// sessions), read from the service's SQLite file by a second, read-only connection. Session event streams are left
// out: a run started earlier keeps appending to its own log after its request was answered.
import Database from "better-sqlite3";

const QUERY = `SELECT
  (SELECT count(*) FROM documents) || '/' || (SELECT coalesce(max(id), 0) FROM chunks) || '/' || (SELECT coalesce(max(seq), 0) FROM events)
  || '/' || (SELECT coalesce(max(seq), 0) FROM records) || '/' || (SELECT count(*) FROM tokens) || '/' || (SELECT count(*) FROM sessions)
  || '/' || (SELECT count(*) FROM forgotten) AS f`;

export function storeFingerprint(dbFile: string): () => string {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const stmt = db.prepare(QUERY);
  return () => (stmt.get() as { f: string }).f;
}
