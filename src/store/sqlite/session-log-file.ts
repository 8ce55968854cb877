// The session log's file beside the memory file, and the move of its tables out of a memory file made before the split.
import { basename, dirname, join } from "node:path";
import type { Db } from "./open.ts";

/** smriti.db -> smriti-sessions.db in the same directory; in memory, a database of its own. */
export function sessionLogFileOf(file: string): string {
  return file === ":memory:" ? file : join(dirname(file), `${basename(file, ".db")}-sessions.db`);
}

/** The tables that live in the session log's file (schema.ts, logMigrations). */
const LOG_TABLES = ["stream_events", "sessions"] as const;

/** Copies the session tables a memory file still holds into the log's file and drops them, under the file's write lock. */
export function moveSessionTables(db: Db, log: Db): void {
  const held = () =>
    LOG_TABLES.filter((t) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t));
  if (held().length === 0) return;
  db.transaction(() => {
    for (const table of held()) {
      // read again under the lock: another process may have moved them meanwhile
      copyRows(db, log, table);
      db.exec(`DROP TABLE ${table}`);
    }
  }).immediate();
}

/** Every row, by the columns the source has (a file made before the lease column has no owner). */
function copyRows(from: Db, to: Db, table: string): void {
  const columns = from.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[];
  const list = columns.map((c) => `"${c}"`).join(", ");
  // OR IGNORE: a move cut off between the log's commit and the drop here copies the same rows again on the next open.
  const insert = to.prepare(`INSERT OR IGNORE INTO ${table} (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
  const rows = from.prepare(`SELECT ${list} FROM ${table}`).raw().iterate() as IterableIterator<unknown[]>;
  to.transaction(() => {
    for (const row of rows) insert.run(row);
  }).immediate();
}

/** For a reader of the memory file (tests, tools): the log's tables under their own names, as schema `session_log`. */
export function attachSessionLog(db: Db, file: string): void {
  db.prepare("ATTACH DATABASE ? AS session_log").run(sessionLogFileOf(file));
}
